import { cva, type VariantProps } from 'class-variance-authority';
import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from '@web/lib/utils';

const alertVariants = cva(
  'flex gap-4 rounded-xl border-2 p-5 [&>svg]:mt-0.5 [&>svg]:size-6 [&>svg]:shrink-0',
  {
    variants: {
      variant: {
        info: 'border-primary/30 bg-primary-soft text-foreground [&>svg]:text-primary',
        warm: 'border-warm-foreground/25 bg-warm text-foreground [&>svg]:text-warm-foreground',
        destructive:
          'border-destructive/40 bg-destructive-soft text-foreground [&>svg]:text-destructive',
        success: 'border-success/40 bg-success-soft text-foreground [&>svg]:text-success',
      },
    },
    defaultVariants: { variant: 'info' },
  },
);

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
      {icon}
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <p id={titleId} className="text-lg font-bold leading-snug">
          {title}
        </p>
        <div className="flex flex-col gap-3 text-foreground/90">{children}</div>
      </div>
    </div>
  );
}
