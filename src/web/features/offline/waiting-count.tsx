import { useLiveQuery } from 'dexie-react-hooks';
import { listVideos } from '@web/lib/videos/local-store';
import { describeWaiting } from './offline-messages';

/**
 * How many recordings on this device the server has yet to hear of: an index row not confirmed,
 * or, where the plan keeps a copy in the cloud, an upload not finished.
 */
export default function WaitingCount({ userId, hasCloud }: { userId: number; hasCloud: boolean }) {
  const count = useLiveQuery(
    async () =>
      (await listVideos(userId)).filter(
        (video) => video.indexedAt === null || (hasCloud && video.syncStatus !== 'synced'),
      ).length,
    [userId, hasCloud],
  );
  if (!count) return null;
  return <span data-testid="offline-waiting">{describeWaiting(count)}</span>;
}
