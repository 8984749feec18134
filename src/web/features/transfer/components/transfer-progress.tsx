import type { ReactNode } from 'react';

/** How far the move has come, in words and as a bar; the words are what a screen reader says. */
export function TransferProgress({
  label,
  arrived,
  total,
  current,
}: {
  label: string;
  arrived: number;
  total: number;
  current: number;
}) {
  const share = total === 0 ? 1 : Math.min(1, (arrived + current) / total);
  const percent = Math.round(share * 100);
  return (
    <div className="flex flex-col gap-2">
      <p className="text-lg font-semibold">{label}</p>
      <div
        role="progressbar"
        aria-label="How much has moved"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-4 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full bg-primary transition-all" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

/** When the two devices cannot reach each other: said plainly, with the backup file instead. */
export function CannotConnectNote({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4">
      <p className="text-lg font-semibold">These two devices cannot reach each other.</p>
      <p>
        Check that both are switched on and use the same Wi-Fi, then try again. Or use a backup file
        instead: choose &lsquo;Download Backup&rsquo; on the old device, copy the file to the new
        one, and choose &lsquo;Restore from Backup&rsquo; there.
      </p>
      {children}
    </div>
  );
}
