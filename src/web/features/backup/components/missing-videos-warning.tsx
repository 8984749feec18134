import { useLiveQuery } from 'dexie-react-hooks';
import { TriangleAlert, Upload } from 'lucide-react';
import type { TUser } from '@shared/schemas/auth';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { listVideos } from '@web/lib/videos/local-store';
import { hasCloudCopy, missingHere, useVideoIndex } from '@web/lib/videos/videos-api';
import { useRestoreBackup } from './restore-backup-button';

function describeMissing(listed: number, onDevice: number): string {
  const holds =
    listed === 1
      ? 'Your account’s list has 1 video, but this browser does not hold it.'
      : `Your account’s list has ${listed} videos, but this browser holds ${onDevice === 0 ? 'none of them' : `only ${onDevice}`}.`;
  const missingOne = listed - onDevice === 1;
  return `${holds} This happens when a browser’s stored data is cleared. If you saved a backup file, restore it to bring ${missingOne ? 'it' : 'them'} back.`;
}

/**
 * When the server's index lists videos this device no longer holds (a cleared browser, say) and
 * no cloud copy keeps, say so plainly and offer the restore. Nothing is removed from the index.
 * A video in the cloud is not lost with this browser's data: a paid plan brings it back by itself
 * and plays it from there meanwhile (a phone's video waiting to be sealed was never here at all).
 */
export function MissingVideosWarning({ user }: { user: TUser }) {
  const localIds = useLiveQuery(
    async () => new Set((await listVideos(user.id)).map((video) => video.id)),
    [user.id],
  );
  const { data: index } = useVideoIndex();
  // The restore's dialog outlives the warning, which goes as soon as the videos are back.
  const { chooseFile, isWorking, restoreUi } = useRestoreBackup(user);
  if (localIds === undefined || index === undefined) return restoreUi;

  const missing = missingHere(index, localIds).length;
  if (missing === 0) return restoreUi;
  const onlyOnDevices = index.filter((row) => !hasCloudCopy(row));
  const onDevice = onlyOnDevices.length - missing;
  return (
    <>
      <Alert
        variant="warm"
        icon={<TriangleAlert aria-hidden="true" />}
        title={
          missing === 1
            ? '1 video is missing from this device'
            : `${missing} videos are missing from this device`
        }
        data-testid="missing-videos"
      >
        <p>{describeMissing(onlyOnDevices.length, onDevice)}</p>
        <div>
          <Button onClick={chooseFile} disabled={isWorking}>
            <Upload aria-hidden="true" />
            Restore from Backup
          </Button>
        </div>
      </Alert>
      {restoreUi}
    </>
  );
}
