import { cva, type VariantProps } from 'class-variance-authority';
import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from '@web/lib/utils';

const alertVariants = cva('flex flex-col gap-2 rounded-xl border-2 p-5', {
  variants: {
    variant: {
      info: 'border-primary/30 bg-primary-soft text-foreground [&_[data-alert-icon]]:text-primary',
      warm: 'border-warm-foreground/25 bg-warm text-foreground [&_[data-alert-icon]]:text-warm-foreground',
      destructive:
        'border-destructive/40 bg-destructive-soft text-foreground [&_[data-alert-icon]]:text-destructive',
      success:
        'border-success/40 bg-success-soft text-foreground [&_[data-alert-icon]]:text-success',
    },
  },
  defaultVariants: { variant: 'info' },
});

type AlertProps = Omit<ComponentProps<'div'>, 'title'> &
  VariantProps<typeof alertVariants> & {
    title: ReactNode;
    icon?: ReactNode;
    /**
     * 'alert' announces at once (errors that just happened); 'note' is a labelled region for
     * standing information that should not interrupt a screen reader.
     */
    kind?: 'alert' | 'note';
  };

/** A titled message box; its accessible name is its title. */
export function Alert({
  className,
  variant,
  title,
  icon,
  kind = 'alert',
  children,
  ...props
}: AlertProps) {
  const titleId = useId();
  return (
    <div
      role={kind === 'alert' ? 'alert' : 'region'}
      aria-labelledby={titleId}
      className={cn(alertVariants({ variant }), className)}
      {...props}
    >
      <p className="flex items-start gap-3 text-lg leading-snug font-bold">
        {icon ? (
          <span data-alert-icon className="mt-px inline-flex shrink-0 [&>svg]:size-6">
            {icon}
          </span>
        ) : null}
        <span id={titleId}>{title}</span>
      </p>
      <div className="flex flex-col gap-3 text-foreground/90 sm:pl-9">{children}</div>
    </div>
  );
}
