import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { LockKeyhole, Upload } from 'lucide-react';
import { PAIRING_MESSAGES } from '@shared/schemas/pairing';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Label } from '@web/components/ui/label';
import { describeError } from '@web/lib/api-client';
import { fetchPairingSession } from '../pairing-api';
import { PhoneVideoRow } from './phone-video-row';
import { usePhoneImport } from './use-phone-import';

/**
 * The phone's half: choose gallery videos, a recipient and a title each, and send them; sealed
 * here first when the account seals its copies (`fragmentKey` from the link).
 */
export function PhoneImport({ token, fragmentKey }: { token: string; fragmentKey: string | null }) {
  const pickerId = useId();
  const session = useQuery({
    queryKey: ['/api/pairing', token],
    queryFn: () => fetchPairingSession(token),
    retry: false,
  });
  const { chosen, isSending, canSend, update, choose, sendAll } = usePhoneImport(token, {
    pairingKeyId: session.data?.pairingKeyId ?? null,
    fragmentKey,
  });

  if (session.isPending)
    return (
      <p role="status" className="text-lg">
        Checking the pairing...
      </p>
    );
  if (session.isError) {
    return (
      <Alert variant="destructive" title="This phone is not paired">
        <p>{describeError(session.error, PAIRING_MESSAGES.ended)}</p>
      </Alert>
    );
  }
  const { ownerFirstName, recipients, pairingKeyId } = session.data;

  return (
    <Card className="flex flex-col gap-5 p-6 sm:p-8">
      <h2 className="text-2xl font-bold tracking-tight">
        Send videos to {ownerFirstName}&rsquo;s Memento
      </h2>
      {pairingKeyId && (
        <p className="flex items-start gap-3 rounded-lg bg-muted p-4 text-lg">
          <LockKeyhole className="mt-1 size-5 shrink-0 text-primary" aria-hidden="true" />
          <span>
            Each video is sealed on this phone before it is sent. {ownerFirstName}&rsquo;s tablet
            finishes sealing it the next time it is open.
          </span>
        </p>
      )}
      <div className="flex flex-col gap-2">
        <Label htmlFor={pickerId}>Choose videos from this phone</Label>
        <input
          id={pickerId}
          type="file"
          accept="video/*"
          multiple
          className="min-h-12 text-lg file:mr-4 file:min-h-12 file:rounded-lg file:border-0 file:bg-primary file:px-5 file:font-semibold file:text-primary-foreground"
          onChange={(event) =>
            choose(event.target.files, recipients.length === 1 ? recipients[0]!.id : null)
          }
        />
      </div>
      {chosen.length > 0 && (
        <ul className="flex flex-col gap-4">
          {chosen.map((item, index) => (
            <PhoneVideoRow
              key={`${item.file.name}-${index}`}
              item={item}
              index={index}
              pickerId={pickerId}
              recipients={recipients}
              onChange={(change) => update(index, change)}
            />
          ))}
        </ul>
      )}
      <div>
        <Button size="lg" disabled={!canSend || isSending} onClick={() => void sendAll()}>
          <Upload aria-hidden="true" />
          {isSending
            ? 'Sending...'
            : chosen.length > 1
              ? `Send ${chosen.length} videos`
              : 'Send video'}
        </Button>
      </div>
    </Card>
  );
}
