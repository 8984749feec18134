import { useId, type ReactNode } from 'react';
import {
  get,
  useFormState,
  useWatch,
  type Control,
  type FieldError,
  type FieldValues,
  type Path,
  type UseFormRegister,
} from 'react-hook-form';
import { FormField } from '@web/components/ui/form-field';
import { PasswordChecklist } from './password-checklist';

interface NewPasswordFieldsProps<TForm extends FieldValues, TValues extends FieldValues> {
  control: Control<TForm, unknown, TValues>;
  register: UseFormRegister<TForm>;
  /** The field that holds the new password. */
  name: Path<TForm>;
  label?: string;
  hint?: ReactNode;
  /** The field that repeats it; null where the password is not typed twice. */
  confirmName?: Path<TForm> | null;
  confirmLabel?: string;
  isRequired?: boolean;
}

/**
 * Choosing a password: the field with its live requirements checklist (shown and read with it),
 * then the field that repeats it. Every form that sets a password uses this one block.
 */
export function NewPasswordFields<TForm extends FieldValues, TValues extends FieldValues>({
  control,
  register,
  name,
  label = 'New password',
  hint,
  confirmName = 'confirmPassword' as Path<TForm>,
  confirmLabel = 'Confirm new password',
  isRequired = false,
}: NewPasswordFieldsProps<TForm, TValues>) {
  const checklistId = useId();
  const password: unknown = useWatch({ control, name });
  const { errors } = useFormState({ control });
  const errorOf = (field: Path<TForm>) => (get(errors, field) as FieldError | undefined)?.message;
  return (
    <>
      <FormField
        label={label}
        type="password"
        autoComplete="new-password"
        hint={hint}
        isRequired={isRequired}
        after={<PasswordChecklist id={checklistId} password={String(password ?? '')} />}
        afterId={checklistId}
        error={errorOf(name)}
        {...register(name)}
      />
      {confirmName && (
        <FormField
          label={confirmLabel}
          type="password"
          autoComplete="new-password"
          isRequired={isRequired}
          error={errorOf(confirmName)}
          {...register(confirmName)}
        />
      )}
    </>
  );
}
