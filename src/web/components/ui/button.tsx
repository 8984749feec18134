import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { Slot } from 'radix-ui';
import { cn } from '@web/lib/utils';

export const buttonVariants = cva(
  'inline-flex min-h-12 cursor-pointer items-center justify-center gap-2 rounded-lg px-5 py-2.5 text-base font-semibold leading-tight transition-colors select-none disabled:cursor-not-allowed disabled:opacity-60 [&_svg]:size-5 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        default: 'bg-primary text-primary-foreground shadow-sm hover:bg-primary-hover',
        destructive:
          'bg-destructive text-destructive-foreground shadow-sm hover:bg-destructive-hover',
        outline: 'border-2 border-primary/70 bg-card text-primary hover:bg-primary-soft',
        secondary: 'bg-secondary text-secondary-foreground hover:bg-secondary-hover',
        ghost: 'text-foreground hover:bg-muted',
        /** A quiet delete or remove beside other actions. */
        'ghost-destructive': 'text-destructive hover:bg-destructive-soft',
        link: 'min-h-11 px-1 text-primary underline underline-offset-4 hover:text-primary-hover',
      },
      size: {
        default: '',
        lg: 'min-h-14 px-7 text-lg',
        icon: 'size-12 px-0 py-0',
      },
    },
    defaultVariants: { variant: 'default', size: 'default' },
  },
);

export type ButtonProps = ComponentProps<'button'> &
  VariantProps<typeof buttonVariants> & {
    /** Render the child element (e.g. a router Link) with button styling. */
    asChild?: boolean;
  };

export function Button({ className, variant, size, asChild = false, type, ...props }: ButtonProps) {
  if (asChild) {
    return <Slot.Root className={cn(buttonVariants({ variant, size }), className)} {...props} />;
  }
  return (
    <button
      type={type ?? 'button'}
      className={cn(buttonVariants({ variant, size }), className)}
      {...props}
    />
  );
}
