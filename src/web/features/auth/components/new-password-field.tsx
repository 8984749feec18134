import { useId, type ComponentProps } from 'react';
import { FormField } from '@web/components/ui/form-field';
import { PasswordChecklist } from './password-checklist';

type NewPasswordFieldProps = Omit<
  ComponentProps<typeof FormField>,
  'type' | 'after' | 'afterId'
> & {
  /** The value typed so far, for the live requirements checklist. */
  password: string;
};

/** A field for choosing a password (D2): the live checklist is shown and read with it. */
export function NewPasswordField({ password, ...fieldProps }: NewPasswordFieldProps) {
  const checklistId = useId();
  return (
    <FormField
      type="password"
      autoComplete="new-password"
      after={<PasswordChecklist id={checklistId} password={password} />}
      afterId={checklistId}
      {...fieldProps}
    />
  );
}
