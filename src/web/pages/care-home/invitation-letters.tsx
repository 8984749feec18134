import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Printer } from 'lucide-react';
import { formatCode, normalizeCode } from '@shared/domain/codes';
import type { TCareHome, TInvitationLetter, TLetters } from '@shared/schemas/care-homes';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { printLetters, RESIDENTS_KEY } from '@web/features/care-homes/care-homes-api';
import { describeError } from '@web/lib/api-client';
import { formatShortDate } from '@web/lib/date-format';
import { useQrCode } from '@web/lib/use-qr-code';
import { SectionHeading } from './section-heading';

/** The families' page of the home, with the code in the fragment: never sent to the server. */
function letterLink(origin: string, slug: string, code: string): string {
  return `${origin}/r/${slug}#${new URLSearchParams({ code: normalizeCode(code) })}`;
}

/** One family's letter, as it prints: one a page. */
function Letter({ home, letter }: { home: TCareHome; letter: TInvitationLetter }) {
  const origin = window.location.origin;
  const link = letterLink(origin, home.slug, letter.code);
  const qr = useQrCode(link);
  const until = formatShortDate(new Date(letter.expiresAt));
  const headingId = `letter-${letter.residentId}`;
  return (
    <article
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-xl border-2 border-primary/40 bg-card p-5 text-lg break-after-page print:border-0"
    >
      <header className="flex items-center gap-4">
        {home.logoUrl && (
          <img src={home.logoUrl} alt={`${home.name} logo`} className="h-12 w-auto" />
        )}
        <p className="text-2xl font-bold">{home.name}</p>
      </header>
      <h3 id={headingId} className="text-xl font-bold">
        For {letter.nextOfKinName}, family of {letter.residentName}
        {letter.room && ` (room ${letter.room})`}
      </h3>
      <p>
        {home.name} uses Memento so that {letter.residentName} can record video messages for you. To
        watch them, open <strong>{`${origin}/r/${home.slug}`}</strong> (or scan the square code with
        a phone camera), then sign in with your own email address ({letter.maskedEmail}) and this
        code:
      </p>
      <p className="font-mono text-2xl font-bold tracking-wider" data-testid="letter-code">
        {formatCode(letter.code)}
      </p>
      {qr && (
        <img
          src={qr}
          alt="QR code: scan it with a phone or tablet camera to open the sign-in page with this code filled in"
          className="size-48"
        />
      )}
      <p>
        The code works until {until}. Once you have signed in with it, it is yours to keep. If it
        runs out first, ask {home.name} for a new letter.
      </p>
      <p>
        Your messages are held by Memento, not by {home.name}: the home never sees them. If you do
        not want to take part, simply do not sign in, or tell {home.name}.
      </p>
      <p className="font-semibold">Powered by Memento</p>
    </article>
  );
}

/**
 * Letters for the families who have not joined: each with a new code, shown here once to print
 * and never emailed. Making them again replaces those codes.
 */
export function InvitationLetters() {
  const queryClient = useQueryClient();
  const [made, setMade] = useState<TLetters | null>(null);
  const [isWorking, setIsWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function makeLetters() {
    if (isWorking) return;
    setIsWorking(true);
    setError(null);
    try {
      setMade(await printLetters());
      await queryClient.invalidateQueries({ queryKey: RESIDENTS_KEY });
    } catch (reason) {
      setError(describeError(reason, 'Please try again.'));
    } finally {
      setIsWorking(false);
    }
  }

  return (
    <Card asChild>
      <section aria-labelledby="letters-heading">
        <SectionHeading id="letters-heading" title="Invitation letters for families">
          One letter for each family that has not joined yet, with a new code that works for 30
          days. Print them and hand or post them to each family: the codes are not emailed.
        </SectionHeading>
        <CardContent className="flex flex-col gap-5">
          <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            <Button
              size="lg"
              onClick={() => void makeLetters()}
              aria-disabled={isWorking || undefined}
            >
              {isWorking ? 'Making the letters…' : 'Make letters for families who have not joined'}
            </Button>
            {made && (
              <Button size="lg" variant="outline" onClick={() => window.print()}>
                <Printer aria-hidden="true" />
                Print the letters
              </Button>
            )}
          </div>
          {error && (
            <Alert variant="destructive" title="The letters were not made">
              <p>{error}</p>
            </Alert>
          )}
          {made && (
            <div className="print-only-area flex flex-col gap-6" data-testid="letters">
              <p role="status" className="text-lg font-semibold print:hidden">
                {made.letters.length === 1
                  ? '1 letter is ready to print.'
                  : `${made.letters.length} letters are ready to print.`}{' '}
                Any earlier letter for these families no longer works.
              </p>
              {made.letters.map((letter) => (
                <Letter key={letter.residentId} home={made.home} letter={letter} />
              ))}
            </div>
          )}
        </CardContent>
      </section>
    </Card>
  );
}
