import { useId, type ReactNode } from 'react';
import { cn } from '@web/lib/utils';
import { Checkbox } from './checkbox';
import { Label } from './label';

interface CheckboxFieldProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  children: ReactNode;
  className?: string;
}

/** A checkbox whose whole row, label included, is one large target for unsteady hands. */
export function CheckboxField({
  checked,
  onCheckedChange,
  children,
  className,
}: CheckboxFieldProps) {
  const id = useId();
  return (
    <div
      className={cn(
        'flex items-start gap-4 rounded-lg border-2 p-4 transition-colors',
        checked ? 'border-primary/50 bg-primary-soft' : 'border-border bg-card',
        className,
      )}
    >
      <Checkbox
        id={id}
        checked={checked}
        onCheckedChange={(value) => onCheckedChange(value === true)}
        className="-mt-1.5"
      />
      <Label htmlFor={id} className="cursor-pointer font-normal">
        {children}
      </Label>
    </div>
  );
}
