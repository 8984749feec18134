import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { Cloud } from 'lucide-react';
import { hasCloudSync } from '@shared/domain/plan-limits';
import type { TUser } from '@shared/schemas/auth';
import { EncryptionLink } from '@web/components/encryption-link';
import { Alert } from '@web/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { formatBytes } from '@web/lib/format-bytes';
import { FREE_PLAN_CHANGES } from '@web/lib/billing-wording';
import { useRecipients } from '@web/lib/recipients-api';
import { listVideos } from '@web/lib/videos/local-store';
import { useVideoIndex } from '@web/lib/videos/videos-api';
import { CLOUD_STATUS_QUERY_KEY, useCloudStatus } from '../cloud-api';
import { useSyncProgress } from '../sync-progress';
import { CloudLibraryItem, longDateFormat, type TReleaseControl } from './cloud-library-item';
import { CloudFillLine } from './cloud-fill-line';
import { KeepAllOnDeviceButton } from './keep-all-on-device-button';
import { mergeLibrary } from './library-items';
import { SendWhileOpenNote } from './send-while-open-note';

export type { TLibraryItem } from './library-items';

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
  releaseControl: TReleaseControl;
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
  const togglePlay = useCallback(
    (videoId: string) => setPlayingId((playing) => (playing === videoId ? null : videoId)),
    [],
  );

  const cloud = status.data;
  const waiting = (local ?? []).filter((video) => video.syncStatus !== 'synced').length;
  // Offline, the cloud's status cannot be asked: how sending works here is still said.
  if (!cloud) {
    return isPrimaryDevice && hasCloudSync(user) ? <SendWhileOpenNote waiting={waiting} /> : null;
  }
  if (!cloud.hasCloudSync && !cloud.retentionExpiresAt) return null;
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
          <CloudFillLine />
          {isPrimaryDevice && cloud.hasCloudSync && <SendWhileOpenNote waiting={waiting} />}
          {cloud.retentionExpiresAt && (
            <Alert variant="warm" title="Your plan no longer includes cloud sync">
              <p>
                Your messages stay in the cloud until{' '}
                {longDateFormat.format(new Date(cloud.retentionExpiresAt))}, so your recipients can
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
              {items.map((item) => (
                <CloudLibraryItem
                  key={item.id}
                  item={item}
                  recipientName={nameOf(item.recipientId)}
                  sending={progress.get(item.id)}
                  isPlaying={playingId === item.id}
                  onTogglePlay={togglePlay}
                  userId={user.id}
                  // Only the primary device may change it (the server's rule).
                  releaseControl={isPrimaryDevice ? MessageRelease : null}
                />
              ))}
            </ul>
          )}
          {cloud.hasCloudSync && <EncryptionLink />}
        </CardContent>
      </section>
    </Card>
  );
}
