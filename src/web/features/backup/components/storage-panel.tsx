import { Suspense, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { Archive, Download, HardDrive, ShieldAlert, ShieldCheck } from 'lucide-react';
import type { TUser } from '@shared/schemas/auth';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { countVideos } from '@web/lib/videos/local-store';
import { formatBytes } from '@web/lib/format-bytes';
import {
  requestPersistentStorage,
  useStorageStatus,
  type TStorageStatus,
} from '../use-storage-status';
import { RestoreBackupButton } from './restore-backup-button';
import { lazyNamed } from '@web/lib/lazy-named';

// The backup maker loads when the dialog opens, not with the dashboard.
const DownloadBackupDialog = lazyNamed(
  () => import('./download-backup-dialog'),
  'DownloadBackupDialog',
);

type TAskResult = 'granted' | 'refused' | null;

function SpaceList({ status }: { status: TStorageStatus | null }) {
  if (status && (status.usage === null || status.quota === null)) {
    return <p>This browser does not say how much space is free.</p>;
  }
  const used = status?.usage;
  const free =
    status && status.quota !== null && status.usage !== null ? status.quota - status.usage : null;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-lg" data-testid="storage-space">
      <dt className="text-muted-foreground">Used by Memento</dt>
      <dd className="font-semibold tabular-nums">{used == null ? '…' : formatBytes(used)}</dd>
      <dt className="text-muted-foreground">Still free</dt>
      <dd className="font-semibold tabular-nums">
        {free === null ? '…' : formatBytes(Math.max(0, free))}
      </dd>
    </dl>
  );
}

function PersistenceLine({ isPersisted }: { isPersisted: boolean | null }) {
  if (isPersisted === null) return null;
  return (
    <p className="flex items-start gap-3" data-testid="storage-persistence">
      {isPersisted ? (
        <ShieldCheck className="mt-0.5 size-6 shrink-0 text-success" aria-hidden="true" />
      ) : (
        <ShieldAlert className="mt-0.5 size-6 shrink-0 text-warm-foreground" aria-hidden="true" />
      )}
      <span>
        {isPersisted
          ? 'This browser has promised to keep your videos, even when the device runs low on space.'
          : 'This browser has not promised to keep your videos. If the device runs low on space, it could clear them.'}
      </span>
    </p>
  );
}

function AskResult({ result }: { result: TAskResult }) {
  if (result === 'granted') {
    return (
      <Alert
        variant="success"
        title="Your browser agreed"
        icon={<ShieldCheck aria-hidden="true" />}
      >
        <p>
          It will not clear your videos to free up space. A backup file is still a good idea, in
          case this device is lost.
        </p>
      </Alert>
    );
  }
  if (result === 'refused') {
    return (
      <Alert
        variant="warm"
        title="Your browser did not agree"
        icon={<ShieldAlert aria-hidden="true" />}
      >
        <p>
          This browser would not promise to keep your videos. That is common, and nothing is wrong.
          The safe way to protect them is a backup file: download one and keep it somewhere else,
          such as on a USB stick or another computer.
        </p>
      </Alert>
    );
  }
  return null;
}

/**
 * The dashboard's storage card, since videos live in this browser: space used and free, whether
 * the browser keeps this site's data, the request to keep it, and the backup buttons.
 */
export function StoragePanel({ user }: { user: TUser }) {
  const videoCount = useLiveQuery(() => countVideos(user.id), [user.id]);
  const { status, refresh } = useStorageStatus(videoCount);
  const [askResult, setAskResult] = useState<TAskResult>(null);
  const [isAsking, setIsAsking] = useState(false);
  const [isDownloadOpen, setIsDownloadOpen] = useState(false);

  async function askToKeep() {
    setIsAsking(true);
    const isGranted = await requestPersistentStorage();
    setAskResult(isGranted ? 'granted' : 'refused');
    setIsAsking(false);
    refresh();
  }

  const canAsk = status?.canAskToPersist === true && status.isPersisted !== true;

  return (
    <Card asChild>
      <section aria-labelledby="storage-heading">
        <CardHeader>
          <h2
            id="storage-heading"
            className="flex items-center gap-3 text-xl font-bold tracking-tight sm:text-2xl"
          >
            <HardDrive className="size-6 text-primary" aria-hidden="true" />
            Storage and backups
          </h2>
          <CardDescription>
            Your videos are kept in this browser, on this device. A backup file keeps a copy
            somewhere else.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-8 md:grid-cols-2">
          <div className="flex flex-col gap-4">
            <h3 className="text-lg font-bold">Space on this device</h3>
            <SpaceList status={status} />
            <PersistenceLine isPersisted={status?.isPersisted ?? null} />
            {status && !status.canAskToPersist && (
              <p>
                This browser cannot promise to keep your videos, so a backup file is the safe way to
                protect them.
              </p>
            )}
            {canAsk && (
              <div>
                <Button variant="outline" onClick={() => void askToKeep()} disabled={isAsking}>
                  <ShieldCheck aria-hidden="true" />
                  Keep my videos safe on this device
                </Button>
              </div>
            )}
            <div aria-live="polite">
              <AskResult result={askResult} />
            </div>
          </div>

          <div className="flex flex-col gap-4">
            <h3 className="flex items-center gap-2 text-lg font-bold">
              <Archive className="size-5 text-primary" aria-hidden="true" />
              Backup file
            </h3>
            <p>
              A backup file holds a copy of your videos. Keep it away from this device, so you can
              restore your videos if this browser&rsquo;s data is ever cleared.
            </p>
            <div className="grid gap-3 sm:grid-cols-2 md:max-w-xs md:grid-cols-1">
              <Button onClick={() => setIsDownloadOpen(true)}>
                <Download aria-hidden="true" />
                Download Backup
              </Button>
              <RestoreBackupButton user={user} />
            </div>
          </div>
        </CardContent>
        {isDownloadOpen && (
          <Suspense fallback={null}>
            <DownloadBackupDialog user={user} open onOpenChange={setIsDownloadOpen} />
          </Suspense>
        )}
      </section>
    </Card>
  );
}
