import { MonitorSmartphone } from 'lucide-react';
import { canSendInBackground } from '@web/lib/background-send';

export const SEND_WHILE_OPEN =
  'Messages are sent while Memento is open. Keep it open until they are sent.';

/**
 * On browsers that cannot send with Memento closed (Safari, Firefox: no Background Sync), said
 * while a message still waits to go, so nobody closes it thinking it went. Nothing where the
 * browser sends by itself.
 */
export function SendWhileOpenNote({ waiting }: { waiting: number }) {
  if (waiting === 0 || canSendInBackground()) return null;
  return (
    <p className="flex items-start gap-3 text-lg font-medium" data-testid="send-while-open">
      <MonitorSmartphone className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
      {SEND_WHILE_OPEN}
    </p>
  );
}
