import { Check } from 'lucide-react';
import { cn } from '@web/lib/utils';
import { ONBOARDING_STEPS } from './onboarding-steps';

/** How many steps are done, as a bar and, on a wider screen, each step by name. */
export function StepProgress({
  step,
  completed,
}: {
  step: number;
  completed: ReadonlySet<number>;
}) {
  const total = ONBOARDING_STEPS.length;
  const done = completed.size;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-3 text-base">
        <span id="onboarding-progress-label" className="font-semibold">
          Setup progress
        </span>
        <span className="text-muted-foreground">
          {done} of {total} steps done
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby="onboarding-progress-label"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${done} of ${total} steps done`}
        className="h-3 w-full overflow-hidden rounded-full bg-border"
      >
        <div
          className="h-full rounded-full bg-primary transition-[width] duration-300"
          style={{ width: `${(done / total) * 100}%` }}
        />
      </div>
      <ol className="hidden gap-2 sm:grid sm:grid-cols-4" aria-label="Steps">
        {ONBOARDING_STEPS.map((name, index) => {
          const isDone = completed.has(index);
          const isCurrent = index === step;
          return (
            <li
              key={name}
              aria-current={isCurrent ? 'step' : undefined}
              className={cn(
                'flex items-start gap-2 text-base leading-snug',
                isCurrent ? 'font-semibold text-foreground' : 'text-muted-foreground',
              )}
            >
              <span
                className={cn(
                  'inline-flex size-8 shrink-0 items-center justify-center rounded-full border-2 text-base font-bold',
                  isDone
                    ? 'border-primary bg-primary text-primary-foreground'
                    : isCurrent
                      ? 'border-primary text-primary'
                      : 'border-input',
                )}
                aria-hidden="true"
              >
                {isDone ? <Check className="size-4" strokeWidth={3} /> : index + 1}
              </span>
              <span>
                {name}
                <span className="sr-only">
                  {isDone ? ' (done)' : isCurrent ? ' (current)' : ''}
                </span>
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
