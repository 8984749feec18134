import type { ReactNode } from 'react';
import { Check, CircleCheck, CircleDashed, CircleDot, Clock } from 'lucide-react';
import {
  FEATURE_STATUS_LABELS,
  statusOf,
  type TFeatureStatus,
} from '@shared/domain/feature-status';
import { findPlan, PLANS, type TPlan, type TPlanFeature } from '@shared/domain/plans';
import { cn } from '@web/lib/utils';

const STATUS_STYLES: Record<TFeatureStatus, { className: string; icon: ReactNode }> = {
  complete: {
    className: 'bg-success-soft text-success',
    icon: <CircleCheck aria-hidden="true" />,
  },
  in_progress: {
    className: 'bg-primary-soft text-primary',
    icon: <Clock aria-hidden="true" />,
  },
  started: {
    className: 'bg-warm text-warm-foreground',
    icon: <CircleDot aria-hidden="true" />,
  },
  planned: {
    className: 'bg-muted text-muted-foreground',
    icon: <CircleDashed aria-hidden="true" />,
  },
};

/** The status word the features page shows, in the same badge wherever a feature is sold. */
export function StatusBadge({
  status,
  withIcon = true,
  className,
}: {
  status: TFeatureStatus;
  /** Off where the line already starts with the status's icon. */
  withIcon?: boolean;
  className?: string;
}) {
  const style = STATUS_STYLES[status];
  return (
    <span
      className={cn(
        'inline-flex w-fit shrink-0 items-center gap-1.5 rounded-full px-3 py-0.5 text-base font-semibold whitespace-nowrap [&>svg]:size-4',
        style.className,
        className,
      )}
    >
      {withIcon && style.icon}
      {FEATURE_STATUS_LABELS[status]}
    </span>
  );
}

/** The status words of a plan's unfinished lines, in the order the list shows them. */
function unfinishedLabels(lines: readonly TPlanFeature[]): string[] {
  const statuses = lines.map(statusOf).filter((status) => status !== 'complete');
  return [...new Set(statuses)].map((status) => FEATURE_STATUS_LABELS[status]);
}

function joinWords(words: readonly string[], last: string): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)}`;
}

/** 'Parts marked Planned are not finished yet.' for the given lines, or null if all are done. */
export function UnfinishedNote({ lines }: { lines: readonly TPlanFeature[] }) {
  const unfinished = unfinishedLabels(lines);
  if (unfinished.length === 0) return null;
  return (
    <p className="text-lg text-muted-foreground">
      Parts marked {joinWords(unfinished, 'or')} are not finished yet.
    </p>
  );
}

function LineIcon({ status, className }: { status: TFeatureStatus; className: string }) {
  if (status === 'complete') {
    return <Check className={cn(className, 'text-success')} aria-hidden="true" />;
  }
  return (
    <span className={cn(className, 'text-muted-foreground [&>svg]:size-full')}>
      {STATUS_STYLES[status].icon}
    </span>
  );
}

/**
 * A plan's lines. A finished one has a tick; one not finished has its status word beside it,
 * seen and read aloud ('Custom branding: Planned'), and the list ends by saying what the word
 * means, so nobody pays for a promise without knowing it is one. 'flowing' runs the lines on
 * and leaves the note to the slide: six plans on one slide, and on one printed page (where the
 * lines are 12 pt).
 */
export function PlanFeatureList({
  plan,
  layout = 'stacked',
  className,
}: {
  plan: TPlan;
  layout?: 'stacked' | 'flowing';
  className?: string;
}) {
  const isFlowing = layout === 'flowing';
  return (
    <div className={cn('flex flex-col gap-3', className)}>
      <ul
        className={cn(
          'text-lg',
          isFlowing
            ? 'flex flex-wrap gap-x-5 gap-y-0.5 print:contents print:text-base'
            : 'flex flex-col gap-2',
        )}
      >
        {plan.features.map((line) => {
          const status = statusOf(line);
          const isDone = status === 'complete';
          return (
            <li
              key={line.text}
              className={cn('flex gap-2', isFlowing ? 'items-center' : 'items-start')}
              data-feature-id={line.featureId}
            >
              <LineIcon status={status} className={cn('size-5 shrink-0', !isFlowing && 'mt-1')} />
              <span
                className={cn(
                  'flex',
                  isFlowing ? 'flex-wrap items-center gap-x-2' : 'flex-col items-start gap-1',
                )}
              >
                <span>{line.text}</span>
                {!isDone && (
                  <>
                    <span className="sr-only">: </span>
                    <StatusBadge status={status} withIcon={false} />
                  </>
                )}
              </span>
            </li>
          );
        })}
        {plan.terms.map((term) => (
          <li key={term} className={cn('flex gap-2', isFlowing ? 'items-center' : 'items-start')}>
            <LineIcon status="complete" className={cn('size-5 shrink-0', !isFlowing && 'mt-1')} />
            <span>{term}</span>
          </li>
        ))}
      </ul>
      {!isFlowing && <UnfinishedNote lines={plan.features} />}
    </div>
  );
}

/** What the organisation plans add beyond the individual ones: Professional's other lines. */
function organisationExtras(): TPlanFeature[] {
  const individual = new Set(
    PLANS.filter((plan) => plan.audience === 'individual').flatMap((plan) =>
      plan.features.map((line) => line.featureId),
    ),
  );
  return findPlan('professional').features.filter((line) => !individual.has(line.featureId));
}

/**
 * 'Organisation plans add custom branding (Planned), …': the extras in a sentence, each with
 * its status word while it is not finished.
 */
export function OrganisationExtras() {
  const parts = organisationExtras().map((line) => {
    const status = statusOf(line);
    const text = line.text.toLowerCase();
    return status === 'complete' ? text : `${text} (${FEATURE_STATUS_LABELS[status]})`;
  });
  return <>Organisation plans add {joinWords(parts, 'and')}.</>;
}
