import type { ReactNode } from 'react';
import { QrCode } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { formatTransferCode } from '../transfer-code';
import { useSendMessages, type TSendSource, type TSendState } from '../use-send-messages';
import { CannotConnectNote, TransferProgress } from './transfer-progress';

function statusText(state: TSendState): string {
  const { arrived, total } = state.progress;
  switch (state.phase) {
    case 'preparing':
      return 'Getting your messages ready...';
    case 'waiting':
      return 'Waiting for your new device...';
    case 'connecting':
      return 'Connecting to your new device...';
    case 'sending':
      return `Sending message ${Math.min(arrived + 1, total)} of ${total}`;
    case 'interrupted':
      return 'The connection was lost. Open the code again on your new device to carry on.';
    case 'done':
      return total === 1
        ? 'Your message is on your new device. It is still on this device too.'
        : `All ${total} messages are on your new device. They are still on this device too.`;
    case 'ended':
      return 'This code has ended. Choose "Show the code" to make a new one.';
    default:
      return '';
  }
}

/**
 * On the old device: a code, as a picture and as letters, that only the owner's new device can
 * use; then the messages go straight to it, never through the cloud. Nothing is deleted here.
 */
export function SendMessagesPanel({
  source,
  fallback,
}: {
  source: TSendSource;
  /** The backup file, for when the two devices cannot reach each other. */
  fallback: ReactNode;
}) {
  const { state, start } = useSendMessages(source);
  const canStart = ['idle', 'ended', 'failed'].includes(state.phase);
  const isShowingCode = state.code !== null && !['done', 'ended'].includes(state.phase);
  return (
    <div className="flex flex-col gap-5">
      {/* The code first: once the account has moved, this device is signed out. */}
      <ol className="list-decimal space-y-2 pl-6 text-lg">
        <li>Choose &lsquo;Show the code&rsquo; below, and keep this page open.</li>
        {'creatorId' in source && (
          <li>
            On your new device, sign in to Memento with your username and password, and move your
            account there when it asks.
          </li>
        )}
        <li>
          On the new device, scan the picture with its camera, or choose &lsquo;Receive messages
          from my old device&rsquo; and type the code.
        </li>
      </ol>
      {canStart && (
        <div>
          <Button size="lg" onClick={() => void start()}>
            <QrCode aria-hidden="true" />
            Show the code
          </Button>
        </div>
      )}
      {state.error && (
        <p role="alert" className="text-lg font-semibold text-destructive">
          {state.error}
        </p>
      )}
      {isShowingCode && state.qr && (
        <div className="flex flex-col items-start gap-3">
          <img
            src={state.qr}
            width={240}
            height={240}
            alt="QR code that opens Memento on your new device to receive your messages"
            className="rounded-lg border border-border bg-white p-2"
          />
          <p className="text-lg">
            Or type this code on the new device:{' '}
            <strong className="font-mono text-2xl tracking-wider" data-testid="transfer-code">
              {formatTransferCode(state.code!)}
            </strong>
          </p>
          <p>The code works once, for 15 minutes, and only for your account.</p>
        </div>
      )}
      <div role="status" className="flex flex-col gap-3">
        {state.phase === 'sending' || state.phase === 'done' ? (
          <TransferProgress label={statusText(state)} {...state.progress} />
        ) : (
          statusText(state) && <p className="text-lg font-semibold">{statusText(state)}</p>
        )}
      </div>
      {state.phase === 'cannot-connect' && <CannotConnectNote>{fallback}</CannotConnectNote>}
    </div>
  );
}
