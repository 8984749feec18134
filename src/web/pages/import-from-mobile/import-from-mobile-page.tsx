import { useState } from 'react';
import { Link } from 'react-router';
import { CircleDashed, Smartphone } from 'lucide-react';
import { hasCloudSync } from '@shared/domain/plan-limits';
import { Card } from '@web/components/ui/card';
import { useAuth } from '@web/lib/auth-provider';
import { PairPhonePanel } from '@web/features/pairing/components/pair-phone-panel';
import { PhoneImport } from '@web/features/pairing/components/phone-import';
import { PageIntro } from '@web/features/public-site/page-intro';
import { usePageTitle } from '@web/lib/use-page-title';

const TOKEN_KEY = 'memento:pairing-token';
const PAIRING_KEY_KEY = 'memento:pairing-key';

/**
 * The pairing token, and for an account that seals its copies the pairing key, arrive in the
 * link's fragment (never sent to a server), are kept for this tab only, and are wiped from the
 * address bar at once.
 */
function takePairing(): { token: string | null; fragmentKey: string | null } {
  const hash = window.location.hash;
  const token = /[#&]pair=([A-Za-z0-9_-]{20,200})/.exec(hash)?.[1];
  if (token) {
    const fragmentKey = /[#&]k=([A-Za-z0-9_-]{20,100})/.exec(hash)?.[1] ?? null;
    sessionStorage.setItem(TOKEN_KEY, token);
    if (fragmentKey) sessionStorage.setItem(PAIRING_KEY_KEY, fragmentKey);
    else sessionStorage.removeItem(PAIRING_KEY_KEY);
    window.history.replaceState(null, '', window.location.pathname);
    return { token, fragmentKey };
  }
  return {
    token: sessionStorage.getItem(TOKEN_KEY),
    fragmentKey: sessionStorage.getItem(PAIRING_KEY_KEY),
  };
}

const STEPS = [
  'On your primary device, open this page and press ‘Pair a phone’.',
  'Point your phone’s camera at the code it shows (or open the link on your phone).',
  'Choose videos you recorded with your phone’s own camera, give each a title and choose who it is for, and send them.',
] as const;

/**
 * Import from Mobile, loaded on demand: on the primary device of a paid account it pairs a phone;
 * on a paired phone it sends videos; otherwise it explains how.
 */
export default function ImportFromMobilePage() {
  usePageTitle('Import from Mobile');
  const { user, deviceStatus } = useAuth();
  const [{ token, fragmentKey }] = useState(takePairing);
  const isPrimaryDevice = deviceStatus?.isPrimary ?? user?.deviceStatus === 'primary';
  const canPair = Boolean(user?.isPrimary && isPrimaryDevice && user && hasCloudSync(user));

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-8">
      <PageIntro eyebrow="Paid plans" title="Import from Mobile">
        <p>
          Bring video messages you recorded on your phone into Memento, so they are kept with the
          rest and reach the right people.
        </p>
      </PageIntro>

      {token ? (
        <PhoneImport token={token} fragmentKey={fragmentKey} />
      ) : canPair ? (
        <PairPhonePanel />
      ) : (
        <Card className="flex flex-col gap-5 p-6 sm:p-8">
          <h2 className="flex items-center gap-3 text-2xl font-bold tracking-tight">
            <Smartphone className="size-7 text-primary" aria-hidden="true" />
            How it works
          </h2>
          <ol className="flex list-decimal flex-col gap-3 pl-7 text-lg">
            {STEPS.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <p className="flex items-start gap-3 rounded-lg bg-muted p-4 text-lg">
            <CircleDashed
              className="mt-1 size-5 shrink-0 text-muted-foreground"
              aria-hidden="true"
            />
            <span>
              Importing is part of the Standard, Premium and Professional plans, and starts on your
              primary device.
            </span>
          </p>
        </Card>
      )}

      <p className="text-lg">
        See what else is coming on{' '}
        <Link to="/features" className="font-semibold text-primary underline underline-offset-4">
          Features &amp; Pricing
        </Link>
        .
      </p>
    </div>
  );
}
