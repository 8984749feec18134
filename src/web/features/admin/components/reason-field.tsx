import { useId, type ComponentProps } from 'react';
import { Label } from '@web/components/ui/label';
import { cn } from '@web/lib/utils';

type ReasonFieldProps = ComponentProps<'textarea'> & {
  hint?: string;
  error?: string;
};

/** 'Reason' for an admin action: kept in the audit log, so it asks for a sentence. */
export function ReasonField({ hint, error, className, ...props }: ReasonFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <div className="leading-snug">
        <Label htmlFor={id} className="inline">
          Reason
        </Label>
        <span aria-hidden="true" className="ml-1 font-semibold text-destructive">
          *
        </span>
      </div>
      {hint && (
        <p id={hintId} className="-mt-1 text-base text-muted-foreground">
          {hint}
        </p>
      )}
      <textarea
        id={id}
        rows={3}
        maxLength={500}
        aria-required
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        className="block min-h-24 w-full rounded-lg border-2 border-input bg-card px-4 py-2.5 text-base text-foreground focus-visible:border-primary aria-invalid:border-destructive aria-invalid:bg-destructive-soft/40"
        {...props}
      />
      {error && (
        <p id={errorId} className="flex items-start gap-2 text-base font-semibold text-destructive">
          <span aria-hidden="true">⚠</span>
          {error}
        </p>
      )}
    </div>
  );
}
