import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { HeartHandshake } from 'lucide-react';
import type { TKeyRecoveryState } from '@shared/schemas/escrow';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { isApiError } from '@web/lib/api-client';
import { KEY_RECOVERY_QUERY_KEY, unlockWithNextOfKinCard } from '@web/lib/encryption/escrow';
import { KeyRecoveryWaiting, StartKeyRecovery } from './key-recovery-panel';
import { UnlockForm, useUnlockAttempt } from './unlock-form';

/**
 * The last way back, when the password, every device and the recovery sheet are lost: the next
 * of kin's emergency card, after the legacy release or after a key recovery's wait started here.
 * Behind a button, so an owner who only needs their password is not asked about it.
 */
export function NextOfKinUnlock({ userId }: { userId: number }) {
  const [isOpen, setIsOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [mayStartWait, setMayStartWait] = useState(false);
  const { isWorking, error, attempt } = useUnlockAttempt();
  const recovery = useQuery<TKeyRecoveryState>({
    queryKey: KEY_RECOVERY_QUERY_KEY,
    enabled: isOpen,
  });
  const waitingDays = recovery.data?.waitingDays ?? 7;

  async function unlock() {
    setMayStartWait(false);
    try {
      await unlockWithNextOfKinCard({ userId, nextOfKinEmail: email, emergencyCode: code });
    } catch (reason) {
      // Refused for want of a wait: offer to start one with the card just typed.
      if (isApiError(reason, 'FORBIDDEN') && reason.fields?.keyRecovery === 'none') {
        setMayStartWait(true);
      }
      throw reason;
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

  const live = recovery.data?.recovery;
  return (
    <div className="flex flex-col gap-5">
      {live && <KeyRecoveryWaiting recovery={live} />}
      <UnlockForm
        icon={HeartHandshake}
        title="With your next of kin’s emergency card"
        intro={`If your password, your devices and your recovery sheet are all lost, your next of kin’s emergency card opens your messages: after your legacy is released, or ${waitingDays} days after you start a key recovery here. You are emailed at once, so nobody can do this without you knowing.`}
        isWorking={isWorking}
        submitLabel="Unlock with the emergency card"
        onSubmit={(event) => attempt(event, unlock)}
      >
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
      </UnlockForm>
      {mayStartWait && !live && (
        <StartKeyRecovery
          waitingDays={waitingDays}
          card={{ nextOfKinEmail: email, emergencyCode: code }}
        />
      )}
    </div>
  );
}
