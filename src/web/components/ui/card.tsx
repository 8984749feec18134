import type { ComponentProps } from 'react';
import { Slot } from 'radix-ui';
import { cn } from '@web/lib/utils';

/** `asChild` lends the card's look to a child element, e.g. a labelled <section>. */
export function Card({
  className,
  asChild = false,
  ...props
}: ComponentProps<'div'> & { asChild?: boolean }) {
  const Root = asChild ? Slot.Root : 'div';
  return (
    <Root
      className={cn(
        'rounded-xl border border-border bg-card text-card-foreground shadow-soft',
        className,
      )}
      {...props}
    />
  );
}

export function CardHeader({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div className={cn('flex flex-col gap-1.5 p-6 pb-2 sm:p-8 sm:pb-3', className)} {...props} />
  );
}

export function CardTitle({ className, ...props }: ComponentProps<'h2'>) {
  return (
    <h2 className={cn('text-xl font-bold tracking-tight sm:text-2xl', className)} {...props} />
  );
}

export function CardDescription({ className, ...props }: ComponentProps<'p'>) {
  return <p className={cn('text-muted-foreground', className)} {...props} />;
}

export function CardContent({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('p-6 pt-2 sm:p-8 sm:pt-3', className)} {...props} />;
}

export function CardFooter({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      className={cn('flex flex-wrap items-center gap-3 p-6 pt-0 sm:p-8 sm:pt-0', className)}
      {...props}
    />
  );
}
