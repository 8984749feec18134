import { Link } from 'react-router';
import { Cloud } from 'lucide-react';
import { findPlan } from '@shared/domain/plans';
import { Button } from '@web/components/ui/button';

/** Free users see our own plans here; no third-party ads or trackers: private by default. */
export function HouseBanner() {
  const standard = findPlan('standard');
  return (
    <aside
      aria-label="Memento plans"
      className="flex flex-col gap-4 rounded-xl border-2 border-dashed border-primary/40 bg-primary-soft p-5 sm:flex-row sm:items-center"
    >
      <Cloud className="size-10 shrink-0 text-primary" aria-hidden="true" />
      <div className="flex flex-1 flex-col gap-1">
        <p className="text-base font-semibold tracking-wide text-muted-foreground uppercase">
          From Memento
        </p>
        <p className="text-lg font-semibold">
          {standard.name}: up to {standard.maxRecipients} recipients, messages up to{' '}
          {standard.maxRecordingSeconds / 60} minutes, and a copy kept safe in the cloud.
        </p>
        <p className="text-base text-muted-foreground">{standard.priceLabel}</p>
      </div>
      <Button asChild variant="outline">
        <Link to="/premium">See plans</Link>
      </Button>
    </aside>
  );
}
