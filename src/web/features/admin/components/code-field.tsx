import type { ComponentProps } from 'react';
import { FormField } from '@web/components/ui/form-field';

type CodeFieldProps = Omit<ComponentProps<typeof FormField>, 'type'> & {
  kind: 'totp' | 'recovery';
};

/** The field for a 6-digit authenticator code, or for a recovery code. */
export function CodeField({ kind, className, ...props }: CodeFieldProps) {
  const isTotp = kind === 'totp';
  return (
    <FormField
      type="text"
      inputMode={isTotp ? 'numeric' : 'text'}
      autoComplete={isTotp ? 'one-time-code' : 'off'}
      autoCapitalize={isTotp ? undefined : 'characters'}
      spellCheck={false}
      maxLength={isTotp ? 6 : 40}
      className={className}
      {...props}
    />
  );
}

/** Only digits, at most six: spaces and dashes copied from an app are dropped. */
export function cleanTotp(value: string): string {
  return value.replace(/\D/g, '').slice(0, 6);
}
