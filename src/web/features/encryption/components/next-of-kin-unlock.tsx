import { useState } from 'react';
import { HeartHandshake } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { unlockWithNextOfKinCard } from '@web/lib/encryption/escrow';
import { UnlockForm, useUnlockAttempt } from './unlock-form';

/**
 * The last way back, when the password, every device and the recovery sheet are lost: the next
 * of kin's emergency card, once the legacy release they asked for has passed its waiting period.
 * Behind a button, so an owner who only needs their password is not asked about it.
 */
export function NextOfKinUnlock({ userId }: { userId: number }) {
  const [isOpen, setIsOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const { isWorking, error, attempt } = useUnlockAttempt();

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
    <UnlockForm
      icon={HeartHandshake}
      title="With your next of kin’s emergency card"
      intro="If your password, your devices and your recovery sheet are all lost, your next of kin’s emergency card opens your messages once they have asked for your legacy to be released and the waiting period has ended without it being cancelled."
      isWorking={isWorking}
      submitLabel="Unlock with the emergency card"
      onSubmit={(event) =>
        attempt(event, () =>
          unlockWithNextOfKinCard({ userId, nextOfKinEmail: email, emergencyCode: code }),
        )
      }
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
  );
}
