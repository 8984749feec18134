import { useId } from 'react';
import { formatBytes } from '@web/lib/format-bytes';

/** A labelled progress bar the person can read (percent) and a screen reader can follow. */
export function ProgressBar({
  label,
  fraction,
  detail,
}: {
  label: string;
  fraction: number;
  /** A line under the bar, such as the bytes written and the time left. */
  detail?: string;
}) {
  const labelId = useId();
  const percent = Math.max(0, Math.min(100, Math.round(fraction * 100)));
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-baseline justify-between gap-4 text-lg">
        <span id={labelId} className="font-semibold">
          {label}
        </span>
        <span className="tabular-nums" aria-hidden="true">
          {percent}%
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={detail ? `${percent}%, ${detail}` : undefined}
        className="h-4 overflow-hidden rounded-full bg-muted"
      >
        <div
          className="h-full rounded-full bg-primary transition-[width] duration-200 motion-reduce:transition-none"
          style={{ width: `${percent}%` }}
        />
      </div>
      {detail && (
        <p className="text-lg tabular-nums text-muted-foreground" data-testid="progress-detail">
          {detail}
        </p>
      )}
    </div>
  );
}

function describeTimeLeft(seconds: number): string {
  if (seconds < 60) return 'less than a minute left';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} minute${minutes === 1 ? '' : 's'} left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `about ${hours} hour${hours === 1 ? '' : 's'}${rest ? ` ${rest} min` : ''} left`;
}

/** Waits this long before guessing the time left: the first seconds say little about speed. */
const ESTIMATE_AFTER_MS = 2_000;

/** Bytes written so far, of how many, and since when: what a long copy shows. */
export interface TByteProgressState {
  doneBytes: number;
  totalBytes: number;
  elapsedMs: number;
}

/** Starts a byte progress whose updates carry the time since it started. */
export function startByteProgress(onChange: (progress: TByteProgressState) => void) {
  const startedAt = Date.now();
  return ({ doneBytes, totalBytes }: { doneBytes: number; totalBytes: number }) =>
    onChange({ doneBytes, totalBytes, elapsedMs: Date.now() - startedAt });
}

/** Progress in bytes: "1.2 GB of 5 GB · about 3 minutes left". */
export function ByteProgressBar({
  label,
  progress,
}: {
  label: string;
  progress: TByteProgressState;
}) {
  const { doneBytes, totalBytes, elapsedMs } = progress;
  const fraction = totalBytes === 0 ? 0 : doneBytes / totalBytes;
  let detail = `${formatBytes(doneBytes)} of ${formatBytes(totalBytes)}`;
  if (elapsedMs >= ESTIMATE_AFTER_MS && doneBytes > 0 && doneBytes < totalBytes) {
    const secondsLeft = ((totalBytes - doneBytes) * elapsedMs) / doneBytes / 1000;
    detail += ` · ${describeTimeLeft(secondsLeft)}`;
  }
  return <ProgressBar label={label} fraction={fraction} detail={detail} />;
}
