import { useId } from 'react';
import { RELEASE_RULES, type TReleaseRule } from '@shared/domain/legacy';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { cn } from '@web/lib/utils';
import { RELEASE_TEXT, tomorrowDateField, type TReleaseDraft } from '../release-wording';

interface ReleaseChoiceProps {
  value: TReleaseDraft;
  onChange: (value: TReleaseDraft) => void;
  error?: string | null;
  disabled?: boolean;
}

/**
 * 'When can they watch?': now, on a date (a date field appears) or after the owner's legacy is
 * released. Native radios in rows the size of a finger, so every row is one large target.
 */
export function ReleaseChoice({ value, onChange, error, disabled = false }: ReleaseChoiceProps) {
  const id = useId();
  const dateId = `${id}-date`;
  const errorId = `${id}-error`;
  return (
    <fieldset className="flex flex-col gap-2" disabled={disabled}>
      <legend className="mb-2 text-lg font-semibold">{RELEASE_TEXT.question}</legend>
      {RELEASE_RULES.map((rule: TReleaseRule) => {
        const isChosen = value.rule === rule;
        return (
          <label
            key={rule}
            className={cn(
              'flex min-h-12 cursor-pointer items-center gap-4 rounded-lg border-2 px-4 py-2 text-lg',
              isChosen ? 'border-primary/50 bg-primary-soft' : 'border-border bg-card',
            )}
          >
            <input
              type="radio"
              name={id}
              value={rule}
              checked={isChosen}
              onChange={() => onChange({ ...value, rule })}
              className="size-6 shrink-0 accent-primary"
            />
            {RELEASE_TEXT[rule]}
          </label>
        );
      })}
      {value.rule === 'date' && (
        <div className="flex flex-col gap-2 pt-2 sm:pl-10">
          <Label htmlFor={dateId}>{RELEASE_TEXT.dateLabel}</Label>
          <Input
            id={dateId}
            type="date"
            min={tomorrowDateField()}
            value={value.date}
            onChange={(event) => onChange({ ...value, date: event.target.value })}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            className="max-w-xs"
          />
        </div>
      )}
      {error && (
        <p id={errorId} className="flex items-start gap-2 text-base font-semibold text-destructive">
          <span aria-hidden="true">⚠</span>
          {error}
        </p>
      )}
    </fieldset>
  );
}
