import { useState } from 'react';
import { Copy, RefreshCw, Share2 } from 'lucide-react';
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
import { buildShareText, shareOrCopy, type TShareOutcome, type TShareTarget } from '../share-text';
import { AccessCodeDetails, ShareOutcomeNote } from './access-code-details';

export const SHARE_TEXT = {
  notUsed: 'This recipient type does not use access codes',
  noCode: 'No access code available for this recipient',
  generateFailed: 'Failed to generate access code',
} as const;

interface ShareCodeDialogProps {
  target: TShareTarget | null;
  /** The code just issued (after adding); null means a new one must be issued first. */
  code: string | null;
  ownerName: string;
  onOpenChange: (open: boolean) => void;
  onReshare: (target: TShareTarget) => Promise<string>;
}

/**
 * Shows a recipient's access code once, with what to do with it, and shares it. Codes are
 * stored hashed, so an existing recipient's code cannot be shown again: 'Reshare' issues a
 * new one and the old one stops working.
 */
export function ShareCodeDialog({
  target,
  code,
  ownerName,
  onOpenChange,
  onReshare,
}: ShareCodeDialogProps) {
  const [issuedCode, setIssuedCode] = useState<string | null>(null);
  const [isIssuing, setIsIssuing] = useState(false);
  const [error, setError] = useState<string | null>(null);
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

  return (
    <Dialog open onOpenChange={close}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Share {name}&rsquo;s access code</DialogTitle>
          <DialogDescription>
            {shownCode
              ? `With their email address and this code, ${name} can sign in to Memento.`
              : `For your safety Memento keeps no copy of access codes. Sharing gives ${name} a new code, and the old one stops working.`}
          </DialogDescription>
        </DialogHeader>

        {shownCode ? (
          <>
            <AccessCodeDetails target={target} code={shownCode} />
            <ShareOutcomeNote outcome={outcome} name={name} shareText={shareText} />
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)}>
                Done
              </Button>
              <Button onClick={share}>
                {typeof navigator.share === 'function' ? (
                  <Share2 aria-hidden="true" />
                ) : (
                  <Copy aria-hidden="true" />
                )}
                Share
              </Button>
            </DialogFooter>
          </>
        ) : (
          <>
            {error && (
              <Alert variant="destructive" title={SHARE_TEXT.generateFailed}>
                <p>{error}</p>
              </Alert>
            )}
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button onClick={reshare} disabled={isIssuing}>
                <RefreshCw aria-hidden="true" />
                {isIssuing ? 'Making a new code...' : 'Reshare'}
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
