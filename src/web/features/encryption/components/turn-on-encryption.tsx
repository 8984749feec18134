import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TEncryptionState } from '@shared/schemas/encryption';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { OwnPasswordField } from './unlock-form';
import { Spinner } from '@web/components/ui/spinner';
import { describeError, isApiError } from '@web/lib/api-client';
import { keepAccountKey } from '@web/lib/encryption/device-keys';
import { ENCRYPTION_QUERY_KEY } from '@web/lib/encryption/encryption-state';
import { requestCloudSync } from '@web/lib/sync-request';
import { postTurnOn } from '../encryption-api';
import { makeAccountKeys } from '../turn-on';
import { WhatChanges } from './what-changes';

/** What the recovery sheet shows, handed to the page once encryption is on. */
export interface TNewRecoverySheet {
  recoveryCode: string;
  turnedOnAt: string;
}

const STEP_TITLES = ['What changes', 'Your password'] as const;

/**
 * Turning enhanced encryption on, in the page's own flow: what changes, in plain words; then the
 * password, which the browser stretches into the key that locks the new account key. Only wraps
 * and the password (checked once more) are sent; the recovery code goes to the sheet.
 */
export function TurnOnEncryption({
  userId,
  onTurnedOn,
}: {
  userId: number;
  onTurnedOn: (sheet: TNewRecoverySheet) => void;
}) {
  const [step, setStep] = useState<0 | 1>(0);
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const hasMoved = useRef(false);

  useEffect(() => {
    // The new step's title takes the focus, so a screen reader starts there; not on arrival.
    if (hasMoved.current) headingRef.current?.focus();
    hasMoved.current = true;
  }, [step]);

  return (
    <Card asChild>
      <section aria-labelledby={headingId}>
        <CardHeader>
          <p className="text-lg font-semibold text-primary">Step {step + 1} of 3</p>
          <h2
            id={headingId}
            ref={headingRef}
            tabIndex={-1}
            className="text-2xl font-bold tracking-tight outline-none sm:text-3xl"
          >
            {STEP_TITLES[step]}
          </h2>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          {step === 0 ? (
            <>
              <WhatChanges />
              <div>
                <Button size="lg" onClick={() => setStep(1)}>
                  Continue
                </Button>
              </div>
            </>
          ) : (
            <PasswordStep userId={userId} onBack={() => setStep(0)} onTurnedOn={onTurnedOn} />
          )}
        </CardContent>
      </section>
    </Card>
  );
}

function PasswordStep({
  userId,
  onBack,
  onTurnedOn,
}: {
  userId: number;
  onBack: () => void;
  onTurnedOn: (sheet: TNewRecoverySheet) => void;
}) {
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [isWorking, setIsWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (isWorking) return;
    if (!password) {
      setError('Please type your password.');
      return;
    }
    setIsWorking(true);
    setError(null);
    try {
      const made = await makeAccountKeys(userId, password);
      const state = await postTurnOn(made.body);
      if (state.state !== 'on') throw new Error('Enhanced encryption did not turn on.');
      // This device can seal and open at once; failing that, it is unlocked later like any other.
      await keepAccountKey(userId, made.accountKey).catch(() => undefined);
      queryClient.setQueryData<TEncryptionState>(ENCRYPTION_QUERY_KEY, state);
      requestCloudSync();
      onTurnedOn({ recoveryCode: made.recoveryCode, turnedOnAt: state.turnedOnAt });
    } catch (reason) {
      setIsWorking(false);
      if (isApiError(reason) && reason.status === 409) {
        void queryClient.invalidateQueries({ queryKey: ENCRYPTION_QUERY_KEY });
      }
      setError(
        describeError(reason, 'Enhanced encryption could not be turned on. Please try again.'),
      );
    }
  }

  return (
    <form className="flex flex-col gap-6" onSubmit={(event) => void onSubmit(event)} noValidate>
      <p className="text-lg">
        Type the password you sign in with. Memento checks it once more, and this browser uses it to
        lock the key to your messages.
      </p>
      <OwnPasswordField
        value={password}
        onChange={setPassword}
        error={error}
        disabled={isWorking}
      />
      {isWorking && (
        <p role="status" className="flex items-center gap-3 text-lg">
          <Spinner />
          Making your keys. This takes a few seconds…
        </p>
      )}
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button type="submit" size="lg" disabled={isWorking}>
          {isWorking ? 'Turning on…' : 'Turn on enhanced encryption'}
        </Button>
        <Button type="button" size="lg" variant="outline" disabled={isWorking} onClick={onBack}>
          Back
        </Button>
      </div>
    </form>
  );
}
