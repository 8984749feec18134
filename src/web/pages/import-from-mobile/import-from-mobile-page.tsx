import { Link } from 'react-router';
import { CircleDashed, Smartphone } from 'lucide-react';
import { Card } from '@web/components/ui/card';
import { PageIntro } from '@web/features/public-site/page-intro';
import { usePageTitle } from '@web/lib/use-page-title';

const STEPS = [
  'Choose videos you have already recorded with your phone’s own camera.',
  'Give each one a title and choose who it is for, just as when you record in Memento.',
  'Memento adds them to your messages on this device, and to the cloud on plans with cloud sync.',
] as const;

/** SPEC §2: loaded on demand; explains what the import will do until it is built. */
export default function ImportFromMobilePage() {
  usePageTitle('Import from Mobile');

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-8">
      <PageIntro eyebrow="Coming later" title="Import from Mobile">
        <p>
          Bring video messages you recorded on your phone into Memento, so they are kept with the
          rest and reach the right people.
        </p>
      </PageIntro>

      <Card className="flex flex-col gap-5 p-6 sm:p-8">
        <h2 className="flex items-center gap-3 text-2xl font-bold tracking-tight">
          <Smartphone className="size-7 text-primary" aria-hidden="true" />
          What it will do
        </h2>
        <ol className="flex list-decimal flex-col gap-3 pl-7 text-lg">
          {STEPS.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <p className="flex items-start gap-3 rounded-lg bg-muted p-4 text-lg">
          <CircleDashed className="mt-1 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span>
            Importing is planned and not available yet. Until then, record straight into Memento on
            your primary device with ‘Record New Video Message’ on your dashboard.
          </span>
        </p>
      </Card>

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
