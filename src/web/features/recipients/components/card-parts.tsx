import { Link } from 'react-router';
import { LockKeyhole, ShieldAlert } from 'lucide-react';
import { formatCode, normalizeCode } from '@shared/domain/codes';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { CARD_TEXT } from '@web/lib/encryption/owner-cards';
import { useQrCode } from '@web/lib/use-qr-code';
import type { TShareTarget } from '../share-text';

/**
 * The address a card's QR code opens: the sign-in page with the email and code filled in. They
 * travel in the fragment, which the browser never sends to the server.
 */
export function cardLink(origin: string, email: string, code: string): string {
  const fragment = new URLSearchParams({ email, code: normalizeCode(code) });
  return `${origin}/auth#${fragment}`;
}

/**
 * A recipient's Memento card, on screen and as it prints (only the card prints: the
 * `print-only-area` rule in styles.css): who it is for, where to sign in, the code and a QR code
 * that opens the sign-in page filled in.
 */
export function PrintableCard({
  target,
  code,
  ownerName,
}: {
  target: TShareTarget;
  code: string;
  ownerName: string;
}) {
  const origin = window.location.origin;
  const qr = useQrCode(cardLink(origin, target.email, code));
  const groups = formatCode(code).split('-');
  const headingId = `memento-card-${target.id}`;
  return (
    <section
      aria-labelledby={headingId}
      className="print-only-area flex flex-col gap-4 rounded-xl border-2 border-primary/40 bg-card p-5 print:border-foreground"
    >
      <div className="flex flex-col gap-1">
        <h3 id={headingId} className="text-xl font-bold">
          Memento card for {target.firstName} {target.lastName}
        </h3>
        <p className="text-muted-foreground">From {ownerName}</p>
      </div>
      <div className="flex flex-col gap-1">
        <p className="font-semibold">Access code</p>
        <p
          data-testid="access-code"
          className="rounded-lg bg-muted px-3 py-4 text-center font-mono text-[1.75rem] leading-snug font-bold tracking-wider text-foreground sm:text-3xl"
        >
          {/* Lines break only between groups, never inside one. */}
          {groups.map((group, index) => (
            <span key={index} className="inline-block whitespace-nowrap">
              {index < groups.length - 1 ? `${group}-` : group}
            </span>
          ))}
        </p>
      </div>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        {qr && (
          <img
            src={qr}
            alt="QR code: scan it with a phone or tablet camera to open Memento's sign-in page with this card filled in"
            className="size-40 shrink-0 self-center rounded-lg bg-white"
          />
        )}
        <div className="flex min-w-0 flex-col gap-3">
          <dl className="flex flex-col gap-3">
            <div>
              <dt className="font-semibold">Sign in at</dt>
              <dd className="break-all">{origin}/auth</dd>
            </div>
            <div>
              <dt className="font-semibold">Email</dt>
              <dd className="break-all">{target.email}</dd>
            </div>
          </dl>
          {qr && <p>Or scan the square code with a phone or tablet camera.</p>}
        </div>
      </div>
      <p className="flex items-start gap-3 rounded-lg bg-warm p-3 font-semibold">
        <ShieldAlert className="mt-0.5 size-6 shrink-0 text-warm-foreground" aria-hidden="true" />
        {CARD_TEXT.cannotResend}
      </p>
    </section>
  );
}

/** This device is locked: cards are made here, with the account key, so it must be unlocked. */
export function LockedDeviceAlert() {
  return (
    <Alert variant="warm" title="Please unlock this device first" icon={<LockKeyhole />}>
      <p>{CARD_TEXT.locked}</p>
      <div>
        <Button asChild variant="outline">
          <Link to="/encryption">{CARD_TEXT.unlockLink}</Link>
        </Button>
      </div>
    </Alert>
  );
}
