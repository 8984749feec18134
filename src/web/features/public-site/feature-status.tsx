import type { ReactNode } from 'react';
import { Check, CircleCheck, CircleDashed, CircleDot, Clock } from 'lucide-react';
import {
  FEATURE_STATUS_LABELS,
  findPlan,
  PLANS,
  statusOf,
  type TFeatureStatus,
  type TPlan,
  type TPlanFeature,
} from '@shared/domain/plans';
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
export function StatusBadge({ status, className }: { status: TFeatureStatus; className?: string }) {
  const style = STATUS_STYLES[status];
  return (
    <span
      className={cn(
        'inline-flex w-fit shrink-0 items-center gap-1.5 rounded-full px-3 py-0.5 text-base font-semibold whitespace-nowrap [&>svg]:size-4',
        style.className,
        className,
      )}
    >
      {style.icon}
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

/**
 * A plan's lines. A finished one has a tick; one not finished has its status word beside it,
 * seen and read aloud ('Custom branding: Planned'), and the list ends by saying what the word
 * means, so nobody pays for a promise without knowing it is one.
 */
export function PlanFeatureList({ plan, className }: { plan: TPlan; className?: string }) {
  const unfinished = unfinishedLabels(plan.features);
  return (
    <div className={cn('flex flex-col gap-3', className)}>
      <ul className="flex flex-col gap-2 text-lg">
        {plan.features.map((line) => {
          const status = statusOf(line);
          const isDone = status === 'complete';
          return (
            <li
              key={line.text}
              className="flex gap-2.5"
              data-feature-id={line.featureId}
              data-status={status}
            >
              {isDone ? (
                <Check className="mt-1 size-5 shrink-0 text-success" aria-hidden="true" />
              ) : (
                <CircleDashed
                  className="mt-1 size-5 shrink-0 text-muted-foreground"
                  aria-hidden="true"
                />
              )}
              <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span>{line.text}</span>
                {!isDone && (
                  <>
                    <span className="sr-only">: </span>
                    <StatusBadge status={status} />
                  </>
                )}
              </span>
            </li>
          );
        })}
        {plan.terms.map((term) => (
          <li key={term} className="flex gap-2.5">
            <Check className="mt-1 size-5 shrink-0 text-success" aria-hidden="true" />
            <span>{term}</span>
          </li>
        ))}
      </ul>
      {unfinished.length > 0 && (
        <p className="text-lg text-muted-foreground">
          Parts marked {joinWords(unfinished, 'or')} are not finished yet.
        </p>
      )}
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
