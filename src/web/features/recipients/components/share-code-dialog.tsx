import { useState } from 'react';
import { Copy, Printer, RefreshCw, Share2 } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { describeError } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { LockedDeviceError } from '@web/lib/encryption/owner-cards';
import { buildShareText, shareOrCopy, type TShareOutcome, type TShareTarget } from '../share-text';
import { AccessCodeDetails, CardDetails, ShareOutcomeNote } from './access-code-details';
import { LockedDeviceAlert } from './card-parts';

export const SHARE_TEXT = {
  notUsed: 'This recipient type does not use access codes',
  noCode: 'No access code available for this recipient',
  generateFailed: 'Failed to generate access code',
  cardFailed: 'The new card was not made',
} as const;

interface ShareCodeDialogProps {
  target: TShareTarget | null;
  /** The code just issued (after adding); null means a new one must be issued first. */
  code: string | null;
  ownerName: string;
  onOpenChange: (open: boolean) => void;
  onReshare: (target: TShareTarget) => Promise<string>;
  /**
   * Enhanced encryption is on: codes are cards made on this device (never emailed), a new one
   * is 'Make a new card', and the card can be printed.
   */
  isCard?: boolean;
  /** How the new card's messages are coming along, once it is made. */
  progressNote?: string | null;
}

/**
 * Shows a recipient's access code once, with what to do with it, and shares it. Codes are
 * stored hashed, so an existing recipient's code cannot be shown again: 'Reshare' (or 'Make a
 * new card') issues a new one and the old one stops working.
 */
export function ShareCodeDialog({
  target,
  code,
  ownerName,
  onOpenChange,
  onReshare,
  isCard = false,
  progressNote = null,
}: ShareCodeDialogProps) {
  const [issuedCode, setIssuedCode] = useState<string | null>(null);
  const [isIssuing, setIsIssuing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isLocked, setIsLocked] = useState(false);
  const [outcome, setOutcome] = useState<TShareOutcome | null>(null);
  const shownCode = code ?? issuedCode;

  function close(open: boolean) {
    if (open) return;
    onOpenChange(false);
    // Forget the code once the dialog has gone: it is never shown again.
    setTimeout(() => {
      setIssuedCode(null);
      setError(null);
      setOutcome(null);
    }, 300);
  }

  async function reshare() {
    if (!target) return;
    setIsIssuing(true);
    setError(null);
    try {
      setIssuedCode(await onReshare(target));
    } catch (reason) {
      setIsLocked(reason instanceof LockedDeviceError);
      setError(describeError(reason, SHARE_TEXT.generateFailed));
    } finally {
      setIsIssuing(false);
    }
  }

  if (!target) return null;
  const name = target.firstName;
  const shareText = shownCode
    ? buildShareText({ target, ownerName, code: shownCode, origin: window.location.origin })
    : '';

  async function share() {
    setOutcome(await shareOrCopy(`Memento access code for ${name}`, shareText));
  }

  const text = dialogText(name, Boolean(shownCode), isCard);
  return (
    <Dialog open onOpenChange={close}>
      <DialogContent className={cn('max-w-xl', PRINTS_AS_PAGE)}>
        <DialogHeader className="print:hidden">
          <DialogTitle>{text.title}</DialogTitle>
          <DialogDescription>{text.description}</DialogDescription>
        </DialogHeader>

        {shownCode ? (
          <>
            {isCard ? (
              <CardDetails target={target} code={shownCode} ownerName={ownerName} />
            ) : (
              <AccessCodeDetails target={target} code={shownCode} />
            )}
            {progressNote && (
              <p role="status" className="text-lg print:hidden">
                {progressNote}
              </p>
            )}
            <ShareOutcomeNote outcome={outcome} name={name} shareText={shareText} />
            <ShareActions isCard={isCard} onDone={() => close(false)} onShare={share} />
          </>
        ) : (
          <>
            {isLocked ? (
              <LockedDeviceAlert />
            ) : (
              error && (
                <Alert
                  variant="destructive"
                  title={isCard ? SHARE_TEXT.cardFailed : SHARE_TEXT.generateFailed}
                >
                  <p>{error}</p>
                </Alert>
              )
            )}
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button onClick={reshare} disabled={isIssuing}>
                <RefreshCw aria-hidden="true" />
                {isIssuing ? text.pending : text.action}
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** Done, Print card (for a card made here) and Share: the dialog's buttons once a code shows. */
function ShareActions({
  isCard,
  onDone,
  onShare,
}: {
  isCard: boolean;
  onDone: () => void;
  onShare: () => void;
}) {
  return (
    <DialogFooter className="print:hidden">
      <Button variant="outline" onClick={onDone}>
        Done
      </Button>
      {isCard && (
        <Button variant="outline" onClick={() => window.print()}>
          <Printer aria-hidden="true" />
          Print card
        </Button>
      )}
      <Button onClick={onShare}>
        {typeof navigator.share === 'function' ? (
          <Share2 aria-hidden="true" />
        ) : (
          <Copy aria-hidden="true" />
        )}
        Share
      </Button>
    </DialogFooter>
  );
}

/**
 * Printed, the dialog sits at the top of the first page with only the card in it (the rest of it
 * is left out), so the card prints whole and first.
 */
const PRINTS_AS_PAGE =
  'print:absolute print:top-0 print:left-0 print:max-h-none print:w-full print:max-w-none print:translate-x-0 print:translate-y-0 print:overflow-visible print:border-0 print:p-0 print:shadow-none';

function dialogText(name: string, hasCode: boolean, isCard: boolean) {
  if (isCard) {
    return {
      title: hasCode ? `${name}’s Memento card` : `A new card for ${name}`,
      description: hasCode
        ? `With their email address and this code, ${name} can sign in to Memento and watch the messages you seal for them.`
        : `For your safety Memento keeps no copy of access codes. A new card gives ${name} a new code that opens the messages you seal for them, and the old code stops working.`,
      action: 'Make a new card',
      pending: 'Making a new card...',
    };
  }
  return {
    title: `Share ${name}’s access code`,
    description: hasCode
      ? `With their email address and this code, ${name} can sign in to Memento.`
      : `For your safety Memento keeps no copy of access codes. Sharing gives ${name} a new code, and the old one stops working.`,
    action: 'Reshare',
    pending: 'Making a new code...',
  };
}
