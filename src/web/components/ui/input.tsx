import type { ComponentProps } from 'react';
import { cn } from '@web/lib/utils';

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return (
    <input
      type={type}
      className={cn(
        'block min-h-12 w-full rounded-lg border-2 border-input bg-card px-4 py-2.5 text-base text-foreground shadow-xs transition-colors placeholder:text-muted-foreground/80',
        'focus-visible:border-primary disabled:cursor-not-allowed disabled:opacity-60',
        'aria-invalid:border-destructive aria-invalid:bg-destructive-soft/40',
        className,
      )}
      {...props}
    />
  );
}
