import { memo, type ComponentType } from 'react';
import { Link } from 'react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { Cloud, CloudUpload, HardDrive, LockKeyhole, Play, X } from 'lucide-react';
import type { TRelease } from '@shared/domain/legacy';
import { Button } from '@web/components/ui/button';
import { VideoPlayer } from '@web/components/video-player';
import { hasAccountKey } from '@web/lib/encryption/device-keys';
import { lazyDateFormat } from '@web/lib/date-format';
import { formatClock } from '@web/lib/video-format';
import { describeSyncProgress, type TSyncProgress } from '../sync-progress';
import type { TLibraryItem } from './library-items';

/** The library's dates, one formatter for the card and its rows. */
export const longDateFormat = lazyDateFormat(undefined, { dateStyle: 'long' });

export type TReleaseControl = ComponentType<{
  videoId: string;
  title: string;
  release: TRelease | undefined;
}>;

interface CloudLibraryItemProps {
  item: TLibraryItem;
  recipientName: string | null;
  /** How far its sending to the cloud has got, while it is being sent. */
  sending: TSyncProgress | undefined;
  isPlaying: boolean;
  onTogglePlay: (videoId: string) => void;
  userId: number;
  /** Its release rule and 'Change'; null where it may not be changed. */
  releaseControl: TReleaseControl | null;
}

/**
 * A phone's sealed video, not yet sealed for the owner: any of their unlocked devices finishes
 * it (within half a minute while Memento is open there), so the line says which this one is.
 */
function WaitingToBeSealed({ userId }: { userId: number }) {
  const isUnlocked = useLiveQuery(() => hasAccountKey(userId), [userId]);
  if (isUnlocked === undefined) return <span>Sent from your phone.</span>;
  if (isUnlocked) return <span>Sent from your phone. Being sealed on this device...</span>;
  return (
    <span>
      Sent from your phone. Waiting to be sealed: <Link to="/encryption">unlock this device</Link>,
      or open Memento on one of yours that is unlocked.
    </span>
  );
}

/**
 * Whether an item would be drawn as it was. The library's items are made afresh whenever it
 * changes (a new device's fill changes it once a message); compared by what they hold, only the
 * item that changed is drawn again, not the whole list each time.
 */
function isDrawnAsBefore(before: CloudLibraryItemProps, after: CloudLibraryItemProps): boolean {
  const { item: was, ...restBefore } = before;
  const { item: is, ...restAfter } = after;
  const keys = new Set([...Object.keys(was), ...Object.keys(is)]) as Set<keyof TLibraryItem>;
  const isSameItem = [...keys].every((key) =>
    key === 'release'
      ? was.release?.rule === is.release?.rule && was.release?.at === is.release?.at
      : was[key] === is[key],
  );
  const props = Object.keys(restBefore) as (keyof typeof restBefore)[];
  return isSameItem && props.every((key) => restBefore[key] === restAfter[key]);
}

/** One message: for whom, when, how long, where it is kept, 'Play', and when it opens. */
export const CloudLibraryItem = memo(function CloudLibraryItem({
  item,
  recipientName,
  sending,
  isPlaying,
  onTogglePlay,
  userId,
  releaseControl: MessageRelease,
}: CloudLibraryItemProps) {
  return (
    <li className="flex flex-col gap-3 rounded-lg border-2 p-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="text-lg font-semibold break-words">{item.title}</p>
          <p className="text-base text-muted-foreground">
            {recipientName ? `For ${recipientName} · ` : ''}
            {longDateFormat.format(new Date(item.createdAt))} · {formatClock(item.durationMs)}
          </p>
          <p className="flex items-center gap-2 text-base" data-testid={`sync-status-${item.id}`}>
            {sending ? (
              <>
                <CloudUpload className="size-5 text-primary" aria-hidden="true" />
                {describeSyncProgress(sending)}
              </>
            ) : item.isWaitingToBeSealed ? (
              <>
                <LockKeyhole className="size-5 shrink-0 text-primary" aria-hidden="true" />
                <WaitingToBeSealed userId={userId} />
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
        <Button variant="outline" aria-expanded={isPlaying} onClick={() => onTogglePlay(item.id)}>
          {isPlaying ? <X aria-hidden="true" /> : <Play aria-hidden="true" />}
          {isPlaying ? 'Close' : 'Play'}
          <span className="sr-only"> {item.title}</span>
        </Button>
      </div>
      {MessageRelease && (
        <MessageRelease videoId={item.id} title={item.title} release={item.release} />
      )}
      {isPlaying && (
        <VideoPlayer
          videoId={item.id}
          title={item.title}
          keepLocally={{
            creatorId: userId,
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
}, isDrawnAsBefore);
