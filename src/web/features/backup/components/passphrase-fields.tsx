import { useId } from 'react';
import { findPasswordProblem } from '@shared/domain/passwords';
import { PasswordChecklist } from '@web/components/password-checklist';
import { CheckboxField } from '@web/components/ui/checkbox-field';
import { FormField } from '@web/components/ui/form-field';
import { HINT_MAX_LENGTH } from '../backup-manifest';

export interface TPassphraseChoice {
  isOn: boolean;
  passphrase: string;
  confirm: string;
  hint: string;
}

export const NO_PASSPHRASE: TPassphraseChoice = {
  isOn: false,
  passphrase: '',
  confirm: '',
  hint: '',
};

export interface TPassphraseErrors {
  passphrase?: string;
  confirm?: string;
  hint?: string;
}

/** The password rules, in words about a passphrase. */
const asPassphrase = (message: string) =>
  message.replace(/^Password/, 'Passphrase').replace(/password/g, 'passphrase');

/** What is wrong with the choice, field by field; empty when it can be used (or is off). */
export function checkPassphrase(choice: TPassphraseChoice): TPassphraseErrors {
  if (!choice.isOn) return {};
  const errors: TPassphraseErrors = {};
  const problem = findPasswordProblem(choice.passphrase);
  if (problem) errors.passphrase = asPassphrase(problem);
  else if (choice.confirm !== choice.passphrase) errors.confirm = 'Passphrases do not match';
  const hint = choice.hint.trim().toLowerCase();
  if (hint && choice.passphrase && hint.includes(choice.passphrase.toLowerCase())) {
    errors.hint =
      'The hint can be read by anyone who has the file, so it must not hold the passphrase.';
  }
  return errors;
}

export const hasPassphraseErrors = (errors: TPassphraseErrors) =>
  Boolean(errors.passphrase || errors.confirm || errors.hint);

interface PassphraseFieldsProps {
  /** 'Protect this backup with a passphrase' or the handover's words. */
  label: string;
  value: TPassphraseChoice;
  onChange: (value: TPassphraseChoice) => void;
  /** Shown once the person has tried to go on. */
  errors: TPassphraseErrors;
}

/**
 * The optional seal on a backup or handover file: off by default; on, a passphrase that meets
 * the password rules (with their live checklist), typed twice, and a hint anyone may read.
 */
export function PassphraseFields({ label, value, onChange, errors }: PassphraseFieldsProps) {
  const checklistId = useId();
  const set = (patch: Partial<TPassphraseChoice>) => onChange({ ...value, ...patch });
  return (
    <div className="flex flex-col gap-4">
      <CheckboxField checked={value.isOn} onCheckedChange={(isOn) => set({ isOn })}>
        <span className="flex flex-col gap-1">
          <span className="text-lg font-semibold">{label}</span>
          <span className="text-base text-muted-foreground">
            Whoever has the file and the passphrase can watch everything; without the passphrase
            nobody can, not even us. It never leaves this browser, so keep it somewhere safe, apart
            from the file.
          </span>
        </span>
      </CheckboxField>
      {value.isOn && (
        <>
          <FormField
            label="Passphrase"
            type="password"
            autoComplete="new-password"
            isRequired
            value={value.passphrase}
            onChange={(event) => set({ passphrase: event.target.value })}
            after={<PasswordChecklist id={checklistId} password={value.passphrase} />}
            afterId={checklistId}
            error={errors.passphrase}
          />
          <FormField
            label="Type the passphrase again"
            type="password"
            autoComplete="new-password"
            isRequired
            value={value.confirm}
            onChange={(event) => set({ confirm: event.target.value })}
            error={errors.confirm}
          />
          <FormField
            label="Hint (optional)"
            hint="Kept in the file where anyone can read it, to remind you. Never the passphrase itself."
            maxLength={HINT_MAX_LENGTH}
            value={value.hint}
            onChange={(event) => set({ hint: event.target.value })}
            error={errors.hint}
          />
        </>
      )}
    </div>
  );
}
