import { Check, ShieldAlert } from 'lucide-react';
import { formatCode } from '@shared/domain/codes';
import { Alert } from '@web/components/ui/alert';
import type { TShareOutcome, TShareTarget } from '../share-text';
import { PrintableCard } from './card-parts';

/** The code just issued, how the recipient signs in with it, and for a next of kin a warning. */
export function AccessCodeDetails({ target, code }: { target: TShareTarget; code: string }) {
  const name = target.firstName;
  return (
    <>
      <div className="rounded-xl border-2 border-primary/40 bg-primary-soft p-5 text-center">
        <p className="text-base text-muted-foreground">Access code for {target.email}</p>
        <p
          data-testid="access-code"
          className="mt-2 font-mono text-xl font-bold tracking-wider whitespace-nowrap sm:text-3xl sm:tracking-widest"
        >
          {formatCode(code)}
        </p>
      </div>
      <ol className="list-decimal space-y-2 pl-6 text-base">
        <li>Give {name} this code, or press Share to send it.</li>
        <li>
          {name} opens {window.location.origin}/auth and chooses &ldquo;Recipient email and access
          code&rdquo;.
        </li>
        <li>
          They enter their email address ({target.email}) and the code. We have also emailed it to
          them.
        </li>
      </ol>
      <NextOfKinWarning target={target} />
    </>
  );
}

function NextOfKinWarning({ target }: { target: TShareTarget }) {
  if (target.category !== 'next_of_kin') return null;
  const name = target.firstName;
  return (
    <Alert
      variant="warm"
      title="This is also the emergency code"
      icon={<ShieldAlert />}
      className="print:hidden"
    >
      <p>
        With this code {name} can reset your password and take over your account when the time
        comes. Share it only privately with {name}, never in a group chat or on social media.
      </p>
    </Alert>
  );
}

/**
 * A card made on this device (enhanced encryption on): the card itself, to print or share, and
 * how the recipient uses it. Memento never emails it and cannot show it again.
 */
export function CardDetails({
  target,
  code,
  ownerName,
}: {
  target: TShareTarget;
  code: string;
  ownerName: string;
}) {
  const name = target.firstName;
  return (
    <>
      <PrintableCard target={target} code={code} ownerName={ownerName} />
      <ol className="list-decimal space-y-2 pl-6 text-base print:hidden">
        <li>Give {name} this card: press Print card, or Share to send the code.</li>
        <li>
          {name} scans the square code with a phone or tablet camera, or opens{' '}
          {window.location.origin}/auth and chooses &ldquo;Recipient email and access code&rdquo;.
        </li>
        <li>This code is not emailed: only you can give it to {name}.</li>
      </ol>
      <NextOfKinWarning target={target} />
    </>
  );
}

interface ShareOutcomeNoteProps {
  outcome: TShareOutcome | null;
  name: string;
  shareText: string;
}

/** What 'Share' did: shared, copied, or, with neither share sheet nor clipboard, the text to copy. */
export function ShareOutcomeNote({ outcome, name, shareText }: ShareOutcomeNoteProps) {
  if (outcome === 'copied') {
    return (
      <p role="status" className="flex items-center gap-2 font-semibold text-success">
        <Check className="size-5" aria-hidden="true" />
        Copied. You can paste it into a message to {name}.
      </p>
    );
  }
  if (outcome === 'shared') {
    return (
      <p role="status" className="flex items-center gap-2 font-semibold text-success">
        <Check className="size-5" aria-hidden="true" />
        Shared.
      </p>
    );
  }
  if (outcome !== 'manual') return null;
  return (
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
  );
}
