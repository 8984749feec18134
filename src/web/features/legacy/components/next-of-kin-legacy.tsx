import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Hourglass, KeyRound, ScrollText } from 'lucide-react';
import { LEGACY_MESSAGES } from '@shared/domain/legacy';
import type { TAskHold, TNextOfKinLegacy } from '@shared/schemas/legacy';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { describeError } from '@web/lib/api-client';
import { useAuth } from '@web/lib/auth-provider';
import { requestRelease } from '../legacy-api';
import { formatLongDate } from '../release-wording';
import { lazyDateFormat } from '@web/lib/date-format';

const historyTime = lazyDateFormat('en-GB', { dateStyle: 'long', timeStyle: 'short' });

/** What the recipient home query holds; updated in place after a request. */
const RECIPIENT_HOME_QUERY_KEY = ['/api/recipient-home'] as const;

/** Why the next of kin cannot ask now, in words that do not blame. */
function describeHold(owner: string, hold: TAskHold): string {
  if (hold.reason === 'stopped') return LEGACY_MESSAGES.stopped(owner);
  const day = hold.askAgainOn ? formatLongDate(hold.askAgainOn) : '';
  return hold.reason === 'ended'
    ? LEGACY_MESSAGES.askAgainAfterEnd(owner, day)
    : LEGACY_MESSAGES.askAgainAfterCancel(owner, day);
}

/** What happened to the owner's legacy, shown once it is released. */
function ReleaseHistory({ history }: { history: TNextOfKinLegacy['history'] }) {
  if (history.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <h3 className="flex items-center gap-2 text-xl font-bold">
        <ScrollText className="size-5 text-primary" aria-hidden="true" />
        What happened
      </h3>
      <ol className="flex flex-col gap-2">
        {history.map((entry) => (
          <li
            key={`${entry.at}-${entry.text}`}
            className="flex flex-col rounded-lg border-2 border-border p-3"
          >
            <time dateTime={entry.at} className="text-base text-muted-foreground">
              {historyTime.format(new Date(entry.at))}
            </time>
            <span>{entry.text}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

interface AskReleaseFormProps {
  ownerFirstName: string;
  waitingDays: number;
  code: string;
  onCodeChange: (code: string) => void;
  error: string | null;
  isSending: boolean;
  onSend: () => void;
  onCancel: () => void;
}

/** What asking means, the emergency code, and 'Send request'. */
function AskReleaseForm({
  ownerFirstName,
  waitingDays,
  code,
  onCodeChange,
  error,
  isSending,
  onSend,
  onCancel,
}: AskReleaseFormProps) {
  const waitingPeriod = `${waitingDays} day${waitingDays === 1 ? '' : 's'}`;
  return (
    <form
      className="flex flex-col gap-4 rounded-lg border-2 border-border p-4"
      aria-label={`Ask to release ${ownerFirstName}'s legacy`}
      onSubmit={(event) => {
        event.preventDefault();
        onSend();
      }}
    >
      <p>
        If {ownerFirstName} has died or can no longer use Memento, you can ask to release the
        messages they left for that time. {ownerFirstName} is emailed at once and has{' '}
        {waitingPeriod} to cancel. If they do not, the messages open to the people they are for, and
        each of them is emailed.
      </p>
      <FormField
        label="Emergency code"
        hint="The code you were sent when you were chosen as next of kin."
        value={code}
        onChange={(event) => onCodeChange(event.target.value)}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        placeholder="ABCD-EFGH-JKLM-NP23"
        error={error ?? undefined}
      />
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button type="submit" size="lg" aria-disabled={isSending || undefined}>
          {isSending ? 'Sending...' : 'Send request'}
        </Button>
        <Button type="button" size="lg" variant="outline" disabled={isSending} onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

interface NextOfKinLegacyProps {
  ownerFirstName: string;
  legacy: TNextOfKinLegacy;
}

/**
 * The next of kin's part in a legacy release: ask with the emergency code, see when it is
 * released unless the owner cancels, and once released, what happened and when.
 */
export function NextOfKinLegacy({ ownerFirstName, legacy }: NextOfKinLegacyProps) {
  const queryClient = useQueryClient();
  const [isAsking, setIsAsking] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);
  const email = useAuth().user?.email ?? '';
  const heading = `${ownerFirstName}'s legacy`;

  async function onSend() {
    if (isSending) return;
    if (!code.trim()) {
      setError(LEGACY_MESSAGES.codeRequired);
      return;
    }
    setIsSending(true);
    setError(null);
    try {
      const answer = await requestRelease(email, code.trim());
      queryClient.setQueryData(RECIPIENT_HOME_QUERY_KEY, (home: object | undefined) =>
        home ? { ...home, legacy: { ...legacy, ...answer } } : home,
      );
      setIsAsking(false);
      setCode('');
      void queryClient.invalidateQueries({ queryKey: RECIPIENT_HOME_QUERY_KEY });
    } catch (reason) {
      setError(describeError(reason, 'Please try again.'));
    } finally {
      setIsSending(false);
    }
  }

  return (
    <Card asChild>
      <section aria-labelledby="legacy-heading">
        <CardHeader>
          <h2 id="legacy-heading" className="flex items-center gap-3 text-2xl font-bold">
            <Hourglass className="size-6 text-primary" aria-hidden="true" />
            {heading}
          </h2>
        </CardHeader>
        <CardContent className="flex flex-col gap-4 text-lg">
          {legacy.status === 'waiting' && legacy.releasesAt && (
            <p role="status">
              You asked to release {ownerFirstName}'s legacy
              {legacy.requestedAt ? ` on ${formatLongDate(legacy.requestedAt)}` : ''}. Unless{' '}
              {ownerFirstName} cancels, it is released on {formatLongDate(legacy.releasesAt)}.
            </p>
          )}

          {legacy.status === 'released' && (
            <>
              <p>
                {ownerFirstName}'s legacy was released
                {legacy.releasedAt ? ` on ${formatLongDate(legacy.releasedAt)}` : ''}. The messages{' '}
                {ownerFirstName} left for after that are open to the people they are for.
              </p>
              <ReleaseHistory history={legacy.history} />
            </>
          )}

          {legacy.status === 'none' && legacy.hold && (
            <p role="status">{describeHold(ownerFirstName, legacy.hold)}</p>
          )}

          {legacy.status === 'none' && !legacy.hold && !isAsking && (
            <div>
              <Button size="lg" variant="outline" onClick={() => setIsAsking(true)}>
                <KeyRound aria-hidden="true" />
                Ask to release {ownerFirstName}'s legacy
              </Button>
            </div>
          )}

          {legacy.status === 'none' && !legacy.hold && isAsking && (
            <AskReleaseForm
              ownerFirstName={ownerFirstName}
              waitingDays={legacy.waitingDays}
              code={code}
              onCodeChange={setCode}
              error={error}
              isSending={isSending}
              onSend={() => void onSend()}
              onCancel={() => {
                setIsAsking(false);
                setError(null);
              }}
            />
          )}
          {legacy.status !== 'none' && error && (
            <Alert variant="destructive" title="Your request was not sent">
              <p>{error}</p>
            </Alert>
          )}
        </CardContent>
      </section>
    </Card>
  );
}
