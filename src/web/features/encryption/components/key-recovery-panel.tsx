import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Hourglass } from 'lucide-react';
import type { TKeyRecovery, TKeyRecoveryState } from '@shared/schemas/escrow';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { describeError } from '@web/lib/api-client';
import { lazyDateFormat } from '@web/lib/date-format';
import {
  KEY_RECOVERY_QUERY_KEY,
  startKeyRecovery,
  stopKeyRecovery,
} from '@web/lib/encryption/escrow';

const whenFormat = lazyDateFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });

/** One press that answers the key recovery's new state, or says in words why it did not. */
function useRecoveryAction() {
  const queryClient = useQueryClient();
  const [isWorking, setIsWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(action: () => Promise<TKeyRecoveryState>) {
    if (isWorking) return;
    setIsWorking(true);
    setError(null);
    try {
      queryClient.setQueryData(KEY_RECOVERY_QUERY_KEY, await action());
    } catch (reason) {
      setError(describeError(reason, 'Please try again.'));
    } finally {
      setIsWorking(false);
    }
  }
  return { isWorking, error, run };
}

/**
 * The offer once the card was refused for want of a wait: start it here. The owner is emailed at
 * once, so a relative who took the account over cannot do this without them knowing.
 */
export function StartKeyRecovery({
  waitingDays,
  card,
}: {
  waitingDays: number;
  card: { nextOfKinEmail: string; emergencyCode: string };
}) {
  const { isWorking, error, run } = useRecoveryAction();
  return (
    <Alert
      variant="warm"
      kind="note"
      title={`Start the ${waitingDays}-day wait`}
      icon={<Hourglass />}
    >
      <p className="text-lg">
        After {waitingDays} days, your next of kin’s card opens your messages on this account. We
        email you at once with a link that stops it, so nobody can do this without you knowing.
      </p>
      <div>
        <Button
          type="button"
          size="lg"
          onClick={() => void run(() => startKeyRecovery(card))}
          aria-disabled={isWorking || undefined}
        >
          {isWorking ? 'Starting…' : 'Start the wait'}
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-lg font-semibold text-destructive">
          {error}
        </p>
      )}
    </Alert>
  );
}

/** A key recovery that is live: when the card opens the messages, and a button to stop it. */
export function KeyRecoveryWaiting({ recovery }: { recovery: TKeyRecovery }) {
  const { isWorking, error, run } = useRecoveryAction();
  const when = whenFormat.format(new Date(recovery.opensAt));
  const isOpen = recovery.status === 'open';
  return (
    <Alert
      variant={isOpen ? 'success' : 'info'}
      kind="note"
      title={isOpen ? 'The wait is over' : 'Key recovery started'}
      icon={<Hourglass />}
      data-testid="key-recovery"
    >
      <p className="text-lg">
        {isOpen
          ? 'Your next of kin’s emergency card opens your messages now: type it in below.'
          : `Your next of kin’s emergency card opens your messages on ${when}. Come back then and type it in below.`}
      </p>
      <div>
        <Button
          type="button"
          size="lg"
          variant="outline"
          onClick={() => void run(stopKeyRecovery)}
          aria-disabled={isWorking || undefined}
        >
          {isWorking ? 'Stopping…' : 'Stop this recovery'}
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-lg font-semibold text-destructive">
          {error}
        </p>
      )}
    </Alert>
  );
}
