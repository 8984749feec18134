import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { CircleCheck } from 'lucide-react';
import type { TPlainCopies } from '@shared/schemas/encryption';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { hasAccountKey } from '@web/lib/encryption/device-keys';
import { PLAIN_COPIES_QUERY_KEY, sealPlainCopies, type TResealProgress } from '../reseal';

const messages = (count: number) => (count === 1 ? '1 message' : `${count} messages`);

/** The line a run shows while it works, and when it has stopped. */
function progressLine(progress: TResealProgress): string {
  const { sealed, failed, total, state } = progress;
  if (state === 'locked') return 'Unlock this device above first, then they are sealed here.';
  if (state === 'paused')
    return 'Waiting for a connection. Sealing goes on where it stopped when you press the button.';
  if (state === 'sealing')
    return `Sealing the messages already in the cloud: ${Math.min(sealed + failed + 1, total)} of ${total}`;
  if (failed > 0) return `${messages(failed)} could not be sealed this time. Please try again.`;
  return 'The messages already in the cloud are sealed.';
}

/**
 * Enhanced encryption is on: the cloud copies made before it stay plain until this device seals
 * them again. It starts by itself on the primary device, once it is unlocked; each recipient
 * without a card is named, as their messages wait for the card.
 */
export function ResealSection({
  userId,
  isPrimaryDevice,
}: {
  userId: number;
  isPrimaryDevice: boolean;
}) {
  const queryClient = useQueryClient();
  const { data } = useQuery<TPlainCopies>({ queryKey: PLAIN_COPIES_QUERY_KEY, staleTime: 0 });
  const isUnlocked = useLiveQuery(() => hasAccountKey(userId), [userId]);
  const [progress, setProgress] = useState<TResealProgress | null>(null);
  const hasStarted = useRef(false);
  const canRun = isPrimaryDevice && isUnlocked === true;
  const sealable = data?.sealableIds.length ?? 0;

  const run = () => {
    hasStarted.current = true;
    setProgress({ total: sealable, sealed: 0, failed: 0, state: 'sealing' });
    void sealPlainCopies(userId, setProgress)
      .catch(() =>
        setProgress((now) =>
          now ? { ...now, state: 'done', failed: now.total - now.sealed } : now,
        ),
      )
      .finally(() => queryClient.invalidateQueries({ queryKey: PLAIN_COPIES_QUERY_KEY }));
  };
  useEffect(() => {
    if (canRun && sealable > 0 && !hasStarted.current) run();
    // Starts once per visit; the button runs it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [canRun, sealable]);

  if (!data || (data.plainCount === 0 && progress === null)) return null;
  const isSealing = progress?.state === 'sealing';
  return (
    <Card asChild>
      <section aria-labelledby="reseal-heading" data-testid="reseal-section">
        <CardHeader>
          <h2 id="reseal-heading" className="text-2xl font-bold tracking-tight">
            Seal the messages already in the cloud
          </h2>
          <p className="text-lg">
            Messages sent to the cloud before enhanced encryption was on are not sealed yet. This
            device seals them one at a time. Each stays watchable the whole time.
          </p>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          <p className="flex items-start gap-3 text-lg font-semibold" role="status">
            {data.plainCount === 0 && (
              <CircleCheck className="mt-0.5 size-6 shrink-0 text-success" aria-hidden="true" />
            )}
            {progress ? progressLine(progress) : `${messages(data.plainCount)} not sealed yet.`}
          </p>
          {!isPrimaryDevice && (
            <p className="text-lg">Open Memento on your primary device to seal them.</p>
          )}
          {data.waiting.length > 0 && (
            <ul className="flex flex-col gap-3 text-lg">
              {data.waiting.map((person) => (
                <li key={person.recipientId}>
                  {messages(person.count)} not yet sealed for {person.firstName}: give{' '}
                  {person.firstName} a new card.
                </li>
              ))}
            </ul>
          )}
          <div className="flex flex-wrap gap-3">
            {canRun && sealable > 0 && !isSealing && (
              <Button size="lg" onClick={run}>
                Seal them now
              </Button>
            )}
            {data.waiting.length > 0 && (
              <Button asChild size="lg" variant="outline">
                <Link to="/recipients">Make new cards on the Recipients page</Link>
              </Button>
            )}
          </div>
        </CardContent>
      </section>
    </Card>
  );
}
