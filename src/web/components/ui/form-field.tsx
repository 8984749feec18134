import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from '@web/lib/utils';
import { Input } from './input';
import { Label } from './label';
import { PasswordInput } from './password-input';

type FormFieldProps = ComponentProps<'input'> & {
  label: string;
  error?: string;
  /** Help shown under the label, read out with the field. */
  hint?: ReactNode;
  /** Extra content after the input (e.g. a live checklist), described by its own id. */
  after?: ReactNode;
  afterId?: string;
  /** Marks the label with an asterisk (shown, not read out) and the input as required. */
  isRequired?: boolean;
};

/** Label, input, hint and error wired together for assistive technology. */
export function FormField({
  label,
  error,
  hint,
  after,
  afterId,
  isRequired = false,
  className,
  id,
  type,
  ...inputProps
}: FormFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, afterId, errorId].filter(Boolean).join(' ') || undefined;
  const fieldProps = {
    id: inputId,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': isRequired ? true : undefined,
    ...inputProps,
  };

  return (
    <div className={cn('flex flex-col gap-2', className)}>
      {isRequired ? (
        // The asterisk sits beside the label, not in it: the field is announced as required.
        <div className="leading-snug">
          <Label htmlFor={inputId} className="inline">
            {label}
          </Label>
          <span aria-hidden="true" className="ml-1 font-semibold text-destructive">
            *
          </span>
        </div>
      ) : (
        <Label htmlFor={inputId}>{label}</Label>
      )}
      {hint ? (
        <p id={hintId} className="-mt-1 text-base text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {type === 'password' ? (
        <PasswordInput {...fieldProps} />
      ) : (
        <Input type={type} {...fieldProps} />
      )}
      {after}
      {error ? (
        <p id={errorId} className="flex items-start gap-2 text-base font-semibold text-destructive">
          <span aria-hidden="true">⚠</span>
          {error}
        </p>
      ) : null}
    </div>
  );
}
