import { Mail } from 'lucide-react';
import type { TWaitingMessage } from '@shared/schemas/legacy';
import { formatLongDate } from '../release-wording';

/** The sentence for one message the recipient cannot watch yet. */
export function describeWaitingMessage(ownerFirstName: string, message: TWaitingMessage): string {
  const opens =
    message.opensWith === 'date' && message.opensAt
      ? `It opens on ${formatLongDate(message.opensAt)}.`
      : `It opens when ${ownerFirstName}'s legacy is released.`;
  return `A message from ${ownerFirstName} is waiting for you. ${opens}`;
}

/** Messages not open yet, shown only where the owner allows it (the server sends none otherwise). */
export function WaitingMessages({
  ownerFirstName,
  messages,
}: {
  ownerFirstName: string;
  messages: readonly TWaitingMessage[];
}) {
  if (messages.length === 0) return null;
  return (
    <ul className="flex flex-col gap-3" aria-label="Messages waiting for you">
      {messages.map((message) => (
        <li
          key={message.id}
          className="flex items-start gap-3 rounded-lg border-2 border-dashed border-primary/40 bg-primary-soft p-4"
        >
          <Mail className="mt-0.5 size-6 shrink-0 text-primary" aria-hidden="true" />
          <p>{describeWaitingMessage(ownerFirstName, message)}</p>
        </li>
      ))}
    </ul>
  );
}
