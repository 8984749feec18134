import { CheckCircle2 } from 'lucide-react';
import type { TPairingSession } from '@shared/schemas/pairing';
import { Label } from '@web/components/ui/label';
import { Input } from '@web/components/ui/input';
import { formatBytes } from '@web/lib/format-bytes';
import type { TChosen } from './use-phone-import';

interface PhoneVideoRowProps {
  item: TChosen;
  index: number;
  /** The page's picker id, which the row's field ids start with. */
  pickerId: string;
  recipients: TPairingSession['recipients'];
  onChange: (change: Partial<TChosen>) => void;
}

/** One chosen video: its title, who it is for, and how its sending goes. */
export function PhoneVideoRow({ item, index, pickerId, recipients, onChange }: PhoneVideoRowProps) {
  const isLocked = item.state === 'sending' || item.state === 'sent';
  return (
    <li className="flex flex-col gap-3 rounded-lg border-2 p-4">
      <p className="text-base text-muted-foreground break-all">
        {item.file.name} · {formatBytes(item.file.size)}
      </p>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${pickerId}-title-${index}`}>Title</Label>
        <Input
          id={`${pickerId}-title-${index}`}
          value={item.title}
          disabled={isLocked}
          onChange={(event) => onChange({ title: event.target.value })}
        />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${pickerId}-for-${index}`}>Who is it for?</Label>
        <select
          id={`${pickerId}-for-${index}`}
          className="min-h-12 rounded-lg border-2 border-input bg-background px-3 text-lg"
          value={item.recipientId ?? ''}
          disabled={isLocked}
          onChange={(event) =>
            onChange({ recipientId: event.target.value ? Number(event.target.value) : null })
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
  );
}
