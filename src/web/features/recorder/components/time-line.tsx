import { cn } from '@web/lib/utils';
import { formatClock } from '@web/lib/video-format';
import type { TRecorder } from '../use-recorder';

/** Time recorded and time left, as words and as a bar that turns red near the end. */
export function TimeLine({ recorder, maxSeconds }: { recorder: TRecorder; maxSeconds: number }) {
  const { elapsedMs, remainingMs, isNearLimit } = recorder;
  const percent = Math.min(100, (elapsedMs / (maxSeconds * 1000)) * 100);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-baseline justify-between gap-4 text-lg tabular-nums">
        <span>
          <span className="font-bold">{formatClock(elapsedMs)}</span> recorded
        </span>
        <span data-testid="time-left" className={cn(isNearLimit && 'font-bold text-destructive')}>
          {formatClock(remainingMs)} left
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Recording time used"
        aria-valuemin={0}
        aria-valuemax={maxSeconds}
        aria-valuenow={Math.floor(elapsedMs / 1000)}
        aria-valuetext={`${formatClock(elapsedMs)} of ${formatClock(maxSeconds * 1000)}`}
        className="h-3 overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn('h-full rounded-full', isNearLimit ? 'bg-destructive' : 'bg-primary')}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
