import { MonitorCheck, MonitorX } from 'lucide-react';
import { useCloudStatus } from '@web/features/cloud/cloud-api';
import { lazyDateFormat } from '@web/lib/date-format';

const syncTimeFormat = lazyDateFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

function formatLastSync(lastSyncAt: string | null | undefined): string {
  if (!lastSyncAt) return 'Never';
  const date = new Date(lastSyncAt);
  return Number.isNaN(date.getTime()) ? 'Never' : syncTimeFormat.format(date);
}

/**
 * Which device this is and when it last synced. The cloud's answer (asked again every 15 s) draws
 * this line again, not the whole page.
 */
export function DeviceLine({
  isPrimaryDevice,
  keptLastSyncAt,
}: {
  isPrimaryDevice: boolean;
  keptLastSyncAt: string | null | undefined;
}) {
  const cloudStatus = useCloudStatus();
  const lastSync = formatLastSync(cloudStatus.data?.lastSyncAt ?? keptLastSyncAt);
  return (
    <p className="flex items-center gap-2.5 px-1 text-base text-muted-foreground">
      {isPrimaryDevice ? (
        <MonitorCheck className="size-5 shrink-0 text-success" aria-hidden="true" />
      ) : (
        <MonitorX className="size-5 shrink-0" aria-hidden="true" />
      )}
      <span>
        {isPrimaryDevice ? 'This is your primary device' : 'This is not your primary device'}
        {' · '}
        Last sync: {lastSync}
      </span>
    </p>
  );
}
