import type { ComponentProps } from 'react';
import { Checkbox as CheckboxPrimitive } from 'radix-ui';
import { Check } from 'lucide-react';
import { cn } from '@web/lib/utils';

/**
 * A 28 px box inside a 44 × 44 px target, large enough for unsteady hands; the negative margin
 * keeps the box where layouts expect it.
 */
export function Checkbox({ className, ...props }: ComponentProps<typeof CheckboxPrimitive.Root>) {
  return (
    <CheckboxPrimitive.Root
      className={cn(
        'group peer -m-2 inline-flex size-11 shrink-0 cursor-pointer items-center justify-center rounded-lg disabled:cursor-not-allowed disabled:opacity-60',
        className,
      )}
      {...props}
    >
      <span
        aria-hidden="true"
        className="inline-flex size-7 items-center justify-center rounded-md border-2 border-input bg-card text-primary-foreground transition-colors group-data-[state=checked]:border-primary group-data-[state=checked]:bg-primary"
      >
        <CheckboxPrimitive.Indicator>
          <Check className="size-5" strokeWidth={3} aria-hidden="true" />
        </CheckboxPrimitive.Indicator>
      </span>
    </CheckboxPrimitive.Root>
  );
}
