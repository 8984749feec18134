import { useEffect, useState, type ComponentType } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { Cloud, CloudUpload, HardDrive, Play, X } from 'lucide-react';
import type { TRelease } from '@shared/domain/legacy';
import type { TUser } from '@shared/schemas/auth';
import type { TVideoIndexEntry } from '@shared/schemas/videos';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { formatBytes } from '@web/lib/format-bytes';
import { FREE_PLAN_CHANGES } from '@web/lib/billing-wording';
import { useRecipients } from '@web/lib/recipients-api';
import { formatClock } from '@web/lib/video-format';
import { VideoPlayer } from '@web/components/video-player';
import { listVideos, type TLocalVideo } from '@web/lib/videos/local-store';
import { useVideoIndex } from '@web/lib/videos/videos-api';
import { CLOUD_STATUS_QUERY_KEY, useCloudStatus } from '../cloud-api';
import { describeSyncProgress, useSyncProgress } from '../sync-progress';
import { KeepAllOnDeviceButton } from './keep-all-on-device-button';
import { lazyDateFormat } from '@web/lib/date-format';

const dateFormat = lazyDateFormat(undefined, { dateStyle: 'long' });

export interface TLibraryItem {
  id: string;
  title: string;
  recipientId: number;
  createdAt: string;
  durationMs: number;
  promptId: string | null;
  isOnDevice: boolean;
  isInCloud: boolean;
  /** When its recipient may watch: the server's rule, else the one kept on this device. */
  release: TRelease | undefined;
}

/** The account's messages: those on this device and those in the cloud, newest first. */
function mergeLibrary(
  local: readonly TLocalVideo[],
  index: readonly TVideoIndexEntry[],
): TLibraryItem[] {
  const byId = new Map<string, TLibraryItem>();
  for (const entry of index) {
    if (entry.syncStatus !== 'synced') continue;
    byId.set(entry.id, {
      id: entry.id,
      title: entry.title ?? 'A message',
      recipientId: entry.recipientId,
      createdAt: entry.createdAt,
      durationMs: entry.metadata.durationMs,
      promptId: null,
      isOnDevice: false,
      isInCloud: true,
      release: entry.release,
    });
  }
  const indexRelease = new Map(index.map((entry) => [entry.id, entry.release]));
  for (const video of local) {
    const inCloud = byId.get(video.id)?.isInCloud ?? video.syncStatus === 'synced';
    byId.set(video.id, {
      id: video.id,
      title: video.title,
      recipientId: video.recipientId,
      createdAt: video.createdAt,
      durationMs: video.durationMs,
      promptId: video.promptId,
      isOnDevice: true,
      isInCloud: inCloud,
      release: indexRelease.get(video.id) ?? video.release,
    });
  }
  return [...byId.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/**
 * The cloud library on the dashboard of a paid account: what is in the cloud and how much room it
 * takes, each message's way there, and a player for any of them — the local copy first, else the cloud
 * copy, which is then kept on this device. After a move to the free plan it says how long the
 * cloud copies stay and offers to keep them all here.
 */
interface CloudLibraryProps {
  user: TUser;
  isPrimaryDevice: boolean;
  /** Each message's release rule and its 'Change' form, from the legacy feature. */
  releaseControl: ComponentType<{ videoId: string; title: string; release: TRelease | undefined }>;
}

export function CloudLibrary({
  user,
  isPrimaryDevice,
  releaseControl: MessageRelease,
}: CloudLibraryProps) {
  const status = useCloudStatus();
  const { data: index, dataUpdatedAt: indexReadAt } = useVideoIndex();
  const queryClient = useQueryClient();
  // An added device syncs by reading the library: once it has, its 'Last sync' is now. A
  // status asked for while the library was being read may have been answered before that read
  // counted, and a first fetch still on its way would be shared rather than asked again: it is
  // cancelled, then asked afresh.
  useEffect(() => {
    if (isPrimaryDevice || !indexReadAt) return;
    void queryClient
      .cancelQueries({ queryKey: CLOUD_STATUS_QUERY_KEY })
      .then(() => queryClient.invalidateQueries({ queryKey: CLOUD_STATUS_QUERY_KEY }));
  }, [isPrimaryDevice, indexReadAt, queryClient]);
  const local = useLiveQuery(() => listVideos(user.id), [user.id]);
  const recipients = useRecipients({ enabled: isPrimaryDevice });
  const progress = useSyncProgress();
  const [playingId, setPlayingId] = useState<string | null>(null);

  const cloud = status.data;
  if (!cloud || (!cloud.hasCloudSync && !cloud.retentionExpiresAt)) return null;
  const items = mergeLibrary(local ?? [], index ?? []);
  const nameOf = (recipientId: number) => {
    const recipient = recipients.data?.recipients.find((candidate) => candidate.id === recipientId);
    return recipient ? `${recipient.firstName} ${recipient.lastName}` : null;
  };

  return (
    <Card asChild>
      <section aria-labelledby="cloud-heading">
        <CardHeader>
          <h2
            id="cloud-heading"
            className="flex items-center gap-3 text-xl font-bold tracking-tight sm:text-2xl"
          >
            <Cloud className="size-6 text-primary" aria-hidden="true" />
            Your messages in the cloud
          </h2>
          <CardDescription data-testid="cloud-summary">
            {cloud.syncedCount === 1 ? '1 message' : `${cloud.syncedCount} messages`} in the cloud
            {cloud.quotaBytes !== null &&
              ` · ${formatBytes(cloud.usedBytes)} of ${formatBytes(cloud.quotaBytes)} used`}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {cloud.retentionExpiresAt && (
            <Alert variant="warm" title="Your plan no longer includes cloud sync">
              <p>
                Your messages stay in the cloud until{' '}
                {dateFormat.format(new Date(cloud.retentionExpiresAt))}, so your recipients can
                still watch them. Keep them all on this device before then; nothing here is deleted.
              </p>
              {FREE_PLAN_CHANGES.map((line) => (
                <p key={line}>{line}</p>
              ))}
              <div>
                <KeepAllOnDeviceButton userId={user.id} items={items} />
              </div>
            </Alert>
          )}
          {items.length === 0 ? (
            <p className="text-lg">
              Messages you record are sent here by themselves, so the people you love can watch them
              on their own phone or computer.
            </p>
          ) : (
            <ul className="flex flex-col gap-3">
              {items.map((item) => {
                const sending = progress.get(item.id);
                const recipientName = nameOf(item.recipientId);
                const isPlaying = playingId === item.id;
                return (
                  <li key={item.id} className="flex flex-col gap-3 rounded-lg border-2 p-4">
                    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
                      <div className="flex min-w-0 flex-col gap-1">
                        <p className="text-lg font-semibold break-words">{item.title}</p>
                        <p className="text-base text-muted-foreground">
                          {recipientName ? `For ${recipientName} · ` : ''}
                          {dateFormat.format(new Date(item.createdAt))} ·{' '}
                          {formatClock(item.durationMs)}
                        </p>
                        <p
                          className="flex items-center gap-2 text-base"
                          data-testid={`sync-status-${item.id}`}
                        >
                          {sending ? (
                            <>
                              <CloudUpload className="size-5 text-primary" aria-hidden="true" />
                              {describeSyncProgress(sending)}
                            </>
                          ) : item.isInCloud ? (
                            <>
                              <Cloud className="size-5 text-success" aria-hidden="true" />
                              In the cloud{item.isOnDevice ? ' and on this device' : ''}
                            </>
                          ) : (
                            <>
                              <HardDrive className="size-5" aria-hidden="true" />
                              Saved on this device, waiting to be sent
                            </>
                          )}
                        </p>
                      </div>
                      <Button
                        variant="outline"
                        aria-expanded={isPlaying}
                        onClick={() => setPlayingId(isPlaying ? null : item.id)}
                      >
                        {isPlaying ? <X aria-hidden="true" /> : <Play aria-hidden="true" />}
                        {isPlaying ? 'Close' : 'Play'}
                        <span className="sr-only"> {item.title}</span>
                      </Button>
                    </div>
                    {/* Only the primary device may change it (the server's rule). */}
                    {isPrimaryDevice && (
                      <MessageRelease videoId={item.id} title={item.title} release={item.release} />
                    )}
                    {isPlaying && (
                      <VideoPlayer
                        videoId={item.id}
                        title={item.title}
                        keepLocally={{
                          creatorId: user.id,
                          recipientId: item.recipientId,
                          title: item.title,
                          promptId: item.promptId,
                          durationMs: item.durationMs,
                          createdAt: item.createdAt,
                        }}
                      />
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </CardContent>
      </section>
    </Card>
  );
}
