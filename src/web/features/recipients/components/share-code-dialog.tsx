import { useState } from 'react';
import { Check, Copy, RefreshCw, Share2, ShieldAlert } from 'lucide-react';
import { formatCode } from '@shared/domain/codes';
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
            <div className="rounded-xl border-2 border-primary/40 bg-primary-soft p-5 text-center">
              <p className="text-base text-muted-foreground">Access code for {target.email}</p>
              <p
                data-testid="access-code"
                className="mt-2 font-mono text-xl font-bold tracking-wider whitespace-nowrap sm:text-3xl sm:tracking-widest"
              >
                {formatCode(shownCode)}
              </p>
            </div>
            <ol className="list-decimal space-y-2 pl-6 text-base">
              <li>Give {name} this code, or press Share to send it.</li>
              <li>
                {name} opens {window.location.origin}/auth and chooses &ldquo;Recipient email and
                access code&rdquo;.
              </li>
              <li>
                They enter their email address ({target.email}) and the code. We have also emailed
                it to them.
              </li>
            </ol>
            {target.category === 'next_of_kin' && (
              <Alert variant="warm" title="This is also the emergency code" icon={<ShieldAlert />}>
                <p>
                  With this code {name} can reset your password and take over your account when the
                  time comes. Share it only privately with {name}, never in a group chat or on
                  social media.
                </p>
              </Alert>
            )}
            {outcome === 'copied' && (
              <p role="status" className="flex items-center gap-2 font-semibold text-success">
                <Check className="size-5" aria-hidden="true" />
                Copied. You can paste it into a message to {name}.
              </p>
            )}
            {outcome === 'shared' && (
              <p role="status" className="flex items-center gap-2 font-semibold text-success">
                <Check className="size-5" aria-hidden="true" />
                Shared.
              </p>
            )}
            {outcome === 'manual' && (
              <div className="flex flex-col gap-2">
                <label htmlFor="share-text" className="font-semibold">
                  Copy this text and send it to {name}:
                </label>
                <textarea
                  id="share-text"
                  readOnly
                  rows={6}
                  value={shareText}
                  onFocus={(event) => event.currentTarget.select()}
                  className="rounded-lg border-2 border-input bg-card p-3 font-mono text-base"
                />
              </div>
            )}
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
