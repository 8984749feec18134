import { cn } from '@web/lib/utils';

interface SpinnerProps {
  className?: string;
  /** Announced to screen readers. Leave out when visible text beside it already says it. */
  label?: string;
}

export function Spinner({ className, label }: SpinnerProps) {
  const ring = (
    <span
      aria-hidden="true"
      className={cn(
        'inline-block size-8 shrink-0 animate-spin rounded-full border-4 border-primary/25 border-t-primary motion-reduce:animate-none motion-reduce:border-t-primary/60',
        className,
      )}
    />
  );
  if (!label) return ring;
  return (
    <span role="status" className="inline-flex items-center">
      {ring}
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** Centred spinner for a page whose data is still loading. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex min-h-[50dvh] items-center justify-center">
      <Spinner className="size-12" label={label} />
    </div>
  );
}
