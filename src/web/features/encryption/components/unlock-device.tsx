import { useState } from 'react';
import { KeyRound } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { unlockWithPassword, unlockWithRecoveryCode } from '@web/lib/encryption/unlock';
import { OwnPasswordField, UnlockForm, useUnlockAttempt } from './unlock-form';

type TMethod = 'password' | 'recovery';

/**
 * 'Unlock sealed messages on this device': the password (or the printed recovery sheet) opens the
 * account key once, and this device keeps it, locked under its own key, until sign-out.
 */
export function UnlockDevice({ userId }: { userId: number }) {
  const [method, setMethod] = useState<TMethod>('password');
  const [secret, setSecret] = useState('');
  const { isWorking, error, setError, attempt } = useUnlockAttempt();

  function switchTo(next: TMethod) {
    setMethod(next);
    setSecret('');
    setError(null);
  }

  return (
    <UnlockForm
      icon={KeyRound}
      title="Unlock sealed messages on this device"
      intro={
        <>
          This device cannot open your sealed messages yet.{' '}
          {method === 'password'
            ? 'Type your password once and it can, until you sign out here.'
            : 'Type the code from your recovery sheet once and it can, until you sign out here.'}
        </>
      }
      isWorking={isWorking}
      submitLabel="Unlock this device"
      onSubmit={(event) =>
        attempt(event, () =>
          method === 'password'
            ? unlockWithPassword(userId, secret)
            : unlockWithRecoveryCode(userId, secret),
        )
      }
      otherAction={
        <Button
          type="button"
          size="lg"
          variant="outline"
          disabled={isWorking}
          onClick={() => switchTo(method === 'password' ? 'recovery' : 'password')}
        >
          {method === 'password' ? 'Use my recovery sheet instead' : 'Use my password instead'}
        </Button>
      }
    >
      {method === 'password' ? (
        <OwnPasswordField
          key="password"
          value={secret}
          onChange={setSecret}
          error={error}
          disabled={isWorking}
        />
      ) : (
        <FormField
          key="recovery"
          label="Recovery code"
          hint="The 24 letters and numbers on your recovery sheet, in six groups of four."
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          className="[&_input]:font-mono [&_input]:tracking-wider"
          value={secret}
          onChange={(event) => setSecret(event.target.value)}
          error={error ?? undefined}
          disabled={isWorking}
        />
      )}
    </UnlockForm>
  );
}
