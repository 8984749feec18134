import { useEffect, useId, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TLegacyState } from '@shared/schemas/legacy';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { USER_QUERY_KEY } from '@web/lib/auth-api';
import { describeError } from '@web/lib/api-client';
import { endRelease, LEGACY_QUERY_KEY } from '../legacy-api';
import { END_TEXT } from '../release-wording';

const count = (total: number, one: string, many: string) => `${total} ${total === 1 ? one : many}`;

/**
 * 'End the release' for an owner who is alive after all: one button, then a plain confirmation
 * in the page's flow that says what closes and what stays before anything changes.
 */
export function EndRelease({ opened }: { opened: TLegacyState['opened'] }) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [isConfirming, setIsConfirming] = useState(false);
  const [isEnding, setIsEnding] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (isConfirming) headingRef.current?.focus();
  }, [isConfirming]);

  async function onEnd() {
    if (isEnding) return;
    setIsEnding(true);
    setError(null);
    try {
      queryClient.setQueryData(LEGACY_QUERY_KEY, await endRelease());
    } catch (reason) {
      setError(describeError(reason, 'Please try again.'));
    } finally {
      setIsEnding(false);
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: LEGACY_QUERY_KEY });
    }
  }

  const total = opened?.total ?? 0;
  const watched = opened?.watched ?? 0;
  return (
    <div className="flex flex-col gap-4">
      {!isConfirming && (
        <div>
          <Button size="lg" variant="outline" onClick={() => setIsConfirming(true)}>
            {END_TEXT.button}
          </Button>
        </div>
      )}
      {isConfirming && (
        <section
          aria-labelledby={headingId}
          className="flex flex-col gap-4 rounded-lg border-2 border-destructive/40 p-4"
        >
          <h3 id={headingId} ref={headingRef} tabIndex={-1} className="text-xl font-bold">
            {END_TEXT.question}
          </h3>
          <p>
            {count(total, 'message has', 'messages have')} opened
            {total > 0 ? `, and ${count(watched, 'has', 'have')} been watched` : ''}.
          </p>
          <ul className="flex list-disc flex-col gap-2 pl-6">
            <li>Messages nobody has watched yet close again.</li>
            <li>Messages you record for after your legacy stay sealed.</li>
            <li>
              A message someone has already watched stays open to them. They have seen it, and
              taking it back would only hurt.
            </li>
            <li>Everyone who was told of the release gets a short, kind email.</li>
          </ul>
          {error && (
            <Alert variant="destructive" title="The release was not ended">
              <p>{error}</p>
            </Alert>
          )}
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button
              size="lg"
              variant="destructive"
              onClick={() => void onEnd()}
              aria-disabled={isEnding || undefined}
            >
              {isEnding ? 'Ending...' : END_TEXT.confirm}
            </Button>
            <Button
              size="lg"
              variant="outline"
              disabled={isEnding}
              onClick={() => {
                setIsConfirming(false);
                setError(null);
              }}
            >
              Keep it released
            </Button>
          </div>
        </section>
      )}
    </div>
  );
}
