import { useId, useState, type FormEvent } from 'react';
import { KeyRound } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { describeError } from '@web/lib/api-client';
import { unlockWithPassword, unlockWithRecoveryCode } from '@web/lib/encryption/unlock';
import { requestCloudSync } from '@web/lib/sync-request';

type TMethod = 'password' | 'recovery';

/**
 * 'Unlock sealed messages on this device': the password (or the printed recovery sheet) opens the
 * account key once, and this device keeps it, locked under its own key, until sign-out.
 */
export function UnlockDevice({ userId }: { userId: number }) {
  const headingId = useId();
  const [method, setMethod] = useState<TMethod>('password');
  const [secret, setSecret] = useState('');
  const [isWorking, setIsWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function switchTo(next: TMethod) {
    setMethod(next);
    setSecret('');
    setError(null);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (isWorking) return;
    setIsWorking(true);
    setError(null);
    try {
      if (method === 'password') await unlockWithPassword(userId, secret);
      else await unlockWithRecoveryCode(userId, secret);
      // The page shows the device as unlocked by itself (it watches the key store); messages
      // waiting for the key go now.
      requestCloudSync();
    } catch (reason) {
      setError(describeError(reason, 'This device could not be unlocked. Please try again.'));
      setIsWorking(false);
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-5 sm:rounded-lg sm:border-2 sm:p-5"
    >
      <h3 id={headingId} className="flex items-center gap-3 text-xl font-bold">
        <KeyRound className="size-6 shrink-0 text-primary" aria-hidden="true" />
        Unlock sealed messages on this device
      </h3>
      <p className="text-lg">
        This device cannot open your sealed messages yet.{' '}
        {method === 'password'
          ? 'Type your password once and it can, until you sign out here.'
          : 'Type the code from your recovery sheet once and it can, until you sign out here.'}
      </p>
      <form className="flex flex-col gap-5" onSubmit={(event) => void onSubmit(event)} noValidate>
        {method === 'password' ? (
          <FormField
            key="password"
            label="Your password"
            type="password"
            autoComplete="current-password"
            value={secret}
            onChange={(event) => setSecret(event.target.value)}
            error={error ?? undefined}
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
        {isWorking && (
          <p role="status" className="flex items-center gap-3 text-lg">
            <Spinner />
            Opening your key. This takes a few seconds…
          </p>
        )}
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          <Button type="submit" size="lg" disabled={isWorking}>
            {isWorking ? 'Unlocking…' : 'Unlock this device'}
          </Button>
          <Button
            type="button"
            size="lg"
            variant="outline"
            disabled={isWorking}
            onClick={() => switchTo(method === 'password' ? 'recovery' : 'password')}
          >
            {method === 'password' ? 'Use my recovery sheet instead' : 'Use my password instead'}
          </Button>
        </div>
      </form>
    </section>
  );
}
