import { useId, useState, type FormEvent } from 'react';
import { HeartHandshake } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { describeError } from '@web/lib/api-client';
import { unlockWithNextOfKinCard } from '@web/lib/encryption/escrow';
import { requestCloudSync } from '@web/lib/sync-request';

/**
 * The last way back, when the password, every device and the recovery sheet are lost: the next
 * of kin's emergency card, once the legacy release they asked for has passed its waiting period.
 * Behind a button, so an owner who only needs their password is not asked about it.
 */
export function NextOfKinUnlock({ userId }: { userId: number }) {
  const headingId = useId();
  const [isOpen, setIsOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [isWorking, setIsWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (isWorking) return;
    setIsWorking(true);
    setError(null);
    try {
      await unlockWithNextOfKinCard({ userId, nextOfKinEmail: email, emergencyCode: code });
      // The page shows the device as unlocked by itself (it watches the key store).
      requestCloudSync();
    } catch (reason) {
      setError(describeError(reason, 'This device could not be unlocked. Please try again.'));
      setIsWorking(false);
    }
  }

  if (!isOpen) {
    return (
      <div>
        <Button type="button" size="lg" variant="outline" onClick={() => setIsOpen(true)}>
          <HeartHandshake aria-hidden="true" />
          Use my next of kin’s emergency card
        </Button>
      </div>
    );
  }

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-5 sm:rounded-lg sm:border-2 sm:p-5"
    >
      <h3 id={headingId} className="flex items-center gap-3 text-xl font-bold">
        <HeartHandshake className="size-6 shrink-0 text-primary" aria-hidden="true" />
        With your next of kin’s emergency card
      </h3>
      <p className="text-lg">
        If your password, your devices and your recovery sheet are all lost, your next of kin’s
        emergency card opens your messages once they have asked for your legacy to be released and
        the waiting period has ended without it being cancelled.
      </p>
      <form className="flex flex-col gap-5" onSubmit={(event) => void onSubmit(event)} noValidate>
        <FormField
          label="Next of kin’s email"
          type="email"
          inputMode="email"
          autoComplete="off"
          spellCheck={false}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          disabled={isWorking}
        />
        <FormField
          label="Emergency code"
          hint="The 16 letters and numbers on their emergency card."
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          className="[&_input]:font-mono [&_input]:tracking-wider"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          error={error ?? undefined}
          disabled={isWorking}
        />
        {isWorking && (
          <p role="status" className="flex items-center gap-3 text-lg">
            <Spinner />
            Opening your key. This takes a few seconds…
          </p>
        )}
        <div>
          <Button type="submit" size="lg" disabled={isWorking}>
            {isWorking ? 'Unlocking…' : 'Unlock with the emergency card'}
          </Button>
        </div>
      </form>
    </section>
  );
}
