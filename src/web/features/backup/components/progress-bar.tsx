import { useId } from 'react';

/** A labelled progress bar the person can read (percent) and a screen reader can follow. */
export function ProgressBar({ label, fraction }: { label: string; fraction: number }) {
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
        className="h-4 overflow-hidden rounded-full bg-muted"
      >
        <div
          className="h-full rounded-full bg-primary transition-[width] duration-200 motion-reduce:transition-none"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
