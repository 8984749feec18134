import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { UserRound } from 'lucide-react';
import type { TLegacyAsker } from '@shared/schemas/legacy';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { USER_QUERY_KEY } from '@web/lib/auth-api';
import { describeError } from '@web/lib/api-client';
import { LEGACY_QUERY_KEY, setNextOfKinAsking } from '../legacy-api';
import { formatLongDate } from '../release-wording';

/** Where each next of kin stands: may ask, must wait until a day, or stopped by the owner. */
function describeHold(asker: TLegacyAsker): string {
  const { hold, firstName } = asker;
  if (!hold) return `${firstName} can ask to release your legacy.`;
  if (hold.reason === 'stopped') return `You have stopped ${firstName} from asking.`;
  const day = hold.askAgainOn ? formatLongDate(hold.askAgainOn) : '';
  return hold.reason === 'ended'
    ? `You ended the release ${firstName} asked for. ${firstName} can ask again on ${day}.`
    : `You cancelled ${firstName}'s last request. ${firstName} can ask again on ${day}.`;
}

/**
 * Who may ask to release the legacy: the owner can stop a next of kin from asking at all, and
 * let them ask again. Stopping also cancels a request of theirs that waits.
 */
export function NextOfKinAsking({ askers }: { askers: TLegacyAsker[] }) {
  const queryClient = useQueryClient();
  const [busyId, setBusyId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function onSet(asker: TLegacyAsker, isAllowed: boolean) {
    if (busyId !== null) return;
    setBusyId(asker.id);
    setError(null);
    try {
      queryClient.setQueryData(LEGACY_QUERY_KEY, await setNextOfKinAsking(asker.id, isAllowed));
    } catch (reason) {
      setError(describeError(reason, 'Please try again.'));
    } finally {
      setBusyId(null);
      // Stopping someone cancels their waiting request, and the banner goes with it.
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    }
  }

  if (askers.length === 0) return null;
  return (
    <Card asChild>
      <section aria-labelledby="askers-heading">
        <CardHeader>
          <h2 id="askers-heading" className="flex items-center gap-3 text-2xl font-bold">
            <UserRound className="size-6 text-primary" aria-hidden="true" />
            Who can ask
          </h2>
          <CardDescription>
            After you cancel a request, the same person must wait before asking again. If someone
            keeps asking when you do not want it, you can stop them.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4 text-lg">
          <ul className="flex flex-col gap-3">
            {askers.map((asker) => {
              const name = `${asker.firstName} ${asker.lastName}`;
              const isStopped = asker.hold?.reason === 'stopped';
              return (
                <li
                  key={asker.id}
                  className="flex flex-col gap-3 rounded-lg border-2 border-border p-4 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="flex flex-col gap-1">
                    <span className="font-semibold">{name}</span>
                    <span>{describeHold(asker)}</span>
                  </div>
                  <Button
                    size="lg"
                    variant="outline"
                    className="shrink-0"
                    onClick={() => void onSet(asker, isStopped)}
                    aria-disabled={busyId !== null || undefined}
                  >
                    {busyId === asker.id
                      ? 'Saving...'
                      : isStopped
                        ? `Let ${asker.firstName} ask again`
                        : `Stop ${asker.firstName} from asking`}
                  </Button>
                </li>
              );
            })}
          </ul>
          {error && (
            <Alert variant="destructive" title="That was not saved">
              <p>{error}</p>
            </Alert>
          )}
        </CardContent>
      </section>
    </Card>
  );
}
