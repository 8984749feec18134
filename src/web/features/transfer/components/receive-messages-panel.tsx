import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Download } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { formatTransferCode } from '../transfer-code';
import { useReceiveMessages, type TReceiveState } from '../use-receive-messages';
import { CannotConnectNote, TransferProgress } from './transfer-progress';

function statusText(state: TReceiveState): string {
  const { arrived, total } = state.progress;
  switch (state.phase) {
    case 'connecting':
      return 'Connecting to your old device...';
    case 'receiving':
      return total === 0
        ? 'Receiving...'
        : `Receiving message ${Math.min(arrived + 1, total)} of ${total}`;
    case 'interrupted':
      return 'The connection was lost. Choose "Receive my messages" to carry on where it stopped.';
    case 'done':
      return total === 1
        ? 'Your message is now on this device.'
        : `All ${total} messages are now on this device.`;
    case 'already-here':
      return 'This move is finished: your messages are already on this device.';
    default:
      return '';
  }
}

/** The code in the address (from the QR code), never sent to the server. */
function codeFromAddress(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get('code') ?? '';
}

/** On the new device: the code from the old one, then the messages arrive, checked one by one. */
export function ReceiveMessagesPanel({
  creatorId,
  fallback,
}: {
  creatorId: number;
  fallback: ReactNode;
}) {
  const inputId = useId();
  const errorId = useId();
  const { state, receive } = useReceiveMessages(creatorId);
  const [code, setCode] = useState(() => formatTransferCode(codeFromAddress()));
  const hasStarted = useRef(false);
  const isBusy = state.phase === 'connecting' || state.phase === 'receiving';

  useEffect(() => {
    // Opened from the QR code (or reloaded): start at once.
    if (hasStarted.current || !codeFromAddress()) return;
    hasStarted.current = true;
    void receive(codeFromAddress());
  }, [receive]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void receive(code);
  }

  return (
    <div className="flex flex-col gap-5">
      {state.phase !== 'done' && state.phase !== 'already-here' && (
        <form onSubmit={onSubmit} className="flex flex-col gap-3" noValidate>
          <Label htmlFor={inputId} className="text-lg font-semibold">
            Code from your old device
          </Label>
          <Input
            id={inputId}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            aria-invalid={state.phase === 'refused'}
            aria-describedby={state.error ? errorId : undefined}
            className="h-12 max-w-md font-mono text-xl tracking-wider"
          />
          {state.error && (
            <p id={errorId} role="alert" className="text-lg font-semibold text-destructive">
              {state.error}
            </p>
          )}
          <div>
            <Button size="lg" type="submit" disabled={isBusy}>
              <Download aria-hidden="true" />
              Receive my messages
            </Button>
          </div>
        </form>
      )}
      <div role="status" className="flex flex-col gap-3">
        {state.phase === 'receiving' || state.phase === 'done' ? (
          <TransferProgress label={statusText(state)} {...state.progress} />
        ) : (
          statusText(state) && <p className="text-lg font-semibold">{statusText(state)}</p>
        )}
      </div>
      {state.phase === 'cannot-connect' && <CannotConnectNote>{fallback}</CannotConnectNote>}
    </div>
  );
}
