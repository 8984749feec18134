import type { ComponentProps } from 'react';
import { FormField } from '@web/components/ui/form-field';

type EmailedCodeFieldProps = Omit<ComponentProps<typeof FormField>, 'label'> & {
  label?: string;
};

/**
 * A code we emailed: the keyboard may offer it straight from the mail, capitals come up as it
 * is written, and spelling marks stay off it.
 */
export function EmailedCodeField({
  label = 'Code from the email',
  ...props
}: EmailedCodeFieldProps) {
  return (
    <FormField
      label={label}
      autoComplete="one-time-code"
      autoCapitalize="characters"
      spellCheck={false}
      {...props}
    />
  );
}
