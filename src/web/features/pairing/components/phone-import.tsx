import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Upload } from 'lucide-react';
import { PAIRING_MESSAGES } from '@shared/schemas/pairing';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Label } from '@web/components/ui/label';
import { Input } from '@web/components/ui/input';
import { formatBytes } from '@web/lib/format-bytes';
import { describeError } from '@web/lib/api-client';
import { fetchPairingSession, sendFromPhone } from '../pairing-api';

interface TChosen {
  file: File;
  title: string;
  recipientId: number | null;
  state: 'ready' | 'sending' | 'sent' | 'failed';
  sentBytes: number;
  error?: string;
}

const titleFromName = (name: string) =>
  name
    .replace(/\.[^.]+$/, '')
    .replace(/[_-]+/g, ' ')
    .trim();

/** The phone's half: choose gallery videos, a recipient and a title each, and send them. */
export function PhoneImport({ token }: { token: string }) {
  const pickerId = useId();
  const session = useQuery({
    queryKey: ['/api/pairing', token],
    queryFn: () => fetchPairingSession(token),
    retry: false,
  });
  const [chosen, setChosen] = useState<TChosen[]>([]);
  const [isSending, setIsSending] = useState(false);

  const update = (index: number, change: Partial<TChosen>) =>
    setChosen((current) =>
      current.map((item, at) => (at === index ? { ...item, ...change } : item)),
    );

  async function sendAll() {
    setIsSending(true);
    for (const [index, item] of chosen.entries()) {
      if (item.state === 'sent' || item.recipientId === null || !item.title.trim()) continue;
      update(index, { state: 'sending', sentBytes: 0, error: undefined });
      try {
        await sendFromPhone(
          token,
          { file: item.file, title: item.title.trim(), recipientId: item.recipientId },
          (sentBytes) => update(index, { sentBytes }),
        );
        update(index, { state: 'sent', sentBytes: item.file.size });
      } catch (error) {
        update(index, {
          state: 'failed',
          error: describeError(error, 'This video could not be sent.'),
        });
      }
    }
    setIsSending(false);
  }

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
  const { ownerFirstName, recipients } = session.data;
  const canSend =
    chosen.length > 0 &&
    chosen.some((item) => item.state !== 'sent') &&
    chosen.every(
      (item) => item.state === 'sent' || (item.recipientId !== null && item.title.trim()),
    );

  return (
    <Card className="flex flex-col gap-5 p-6 sm:p-8">
      <h2 className="text-2xl font-bold tracking-tight">
        Send videos to {ownerFirstName}&rsquo;s Memento
      </h2>
      <div className="flex flex-col gap-2">
        <Label htmlFor={pickerId}>Choose videos from this phone</Label>
        <input
          id={pickerId}
          type="file"
          accept="video/*"
          multiple
          className="min-h-12 text-lg file:mr-4 file:min-h-12 file:rounded-lg file:border-0 file:bg-primary file:px-5 file:font-semibold file:text-primary-foreground"
          onChange={(event) =>
            setChosen(
              [...(event.target.files ?? [])].map((file) => ({
                file,
                title: titleFromName(file.name),
                recipientId: recipients.length === 1 ? recipients[0]!.id : null,
                state: 'ready' as const,
                sentBytes: 0,
              })),
            )
          }
        />
      </div>
      {chosen.length > 0 && (
        <ul className="flex flex-col gap-4">
          {chosen.map((item, index) => (
            <li
              key={`${item.file.name}-${index}`}
              className="flex flex-col gap-3 rounded-lg border-2 p-4"
            >
              <p className="text-base text-muted-foreground break-all">
                {item.file.name} · {formatBytes(item.file.size)}
              </p>
              <div className="flex flex-col gap-2">
                <Label htmlFor={`${pickerId}-title-${index}`}>Title</Label>
                <Input
                  id={`${pickerId}-title-${index}`}
                  value={item.title}
                  disabled={item.state === 'sending' || item.state === 'sent'}
                  onChange={(event) => update(index, { title: event.target.value })}
                />
              </div>
              <div className="flex flex-col gap-2">
                <Label htmlFor={`${pickerId}-for-${index}`}>Who is it for?</Label>
                <select
                  id={`${pickerId}-for-${index}`}
                  className="min-h-12 rounded-lg border-2 border-input bg-background px-3 text-lg"
                  value={item.recipientId ?? ''}
                  disabled={item.state === 'sending' || item.state === 'sent'}
                  onChange={(event) =>
                    update(index, {
                      recipientId: event.target.value ? Number(event.target.value) : null,
                    })
                  }
                >
                  <option value="">Choose a recipient</option>
                  {recipients.map((recipient) => (
                    <option key={recipient.id} value={recipient.id}>
                      {recipient.firstName} {recipient.lastName}
                    </option>
                  ))}
                </select>
              </div>
              <p role="status" className="text-lg font-semibold">
                {item.state === 'sending' &&
                  `Sending… ${Math.floor((item.sentBytes / Math.max(1, item.file.size)) * 100)}%`}
                {item.state === 'sent' && (
                  <span className="flex items-center gap-2 text-success">
                    <CheckCircle2 className="size-5" aria-hidden="true" />
                    Sent. It will appear on your main device.
                  </span>
                )}
                {item.state === 'failed' && <span className="text-destructive">{item.error}</span>}
              </p>
            </li>
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
