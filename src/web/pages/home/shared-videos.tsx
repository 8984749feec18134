import { HardDrive, PlayCircle, X } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { VideoPlayer } from '@web/components/video-player';
import { lazyDateFormat } from '@web/lib/date-format';
import { formatClock } from '@web/lib/video-format';

const dateFormat = lazyDateFormat(undefined, { dateStyle: 'long' });

interface SharedVideoItemProps {
  video: { id: string; createdAt: string; durationMs: number };
  title: string;
  ownerName: string;
  isPlaying: boolean;
  onToggle: () => void;
}

/** A message shared with this recipient: who from, when, how long, and 'Watch' in place. */
export function SharedVideoItem({
  video,
  title,
  ownerName,
  isPlaying,
  onToggle,
}: SharedVideoItemProps) {
  return (
    <li className="flex flex-col gap-3 rounded-lg border-2 p-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="text-xl font-semibold break-words">{title}</p>
          <p className="text-base text-muted-foreground">
            From {ownerName} · {dateFormat.format(new Date(video.createdAt))} ·{' '}
            {formatClock(video.durationMs)}
          </p>
        </div>
        <Button
          size="lg"
          variant={isPlaying ? 'outline' : 'default'}
          aria-expanded={isPlaying}
          onClick={onToggle}
        >
          {isPlaying ? <X aria-hidden="true" /> : <PlayCircle aria-hidden="true" />}
          {isPlaying ? 'Close' : 'Watch'}
          <span className="sr-only"> {title}</span>
        </Button>
      </div>
      {isPlaying && <VideoPlayer videoId={video.id} title={title} />}
    </li>
  );
}

/** Nothing here yet; with the free plan, why messages cannot arrive on their own. */
export function NoMessagesYet({
  ownerFirstName,
  ownerHasCloudSync,
}: {
  ownerFirstName: string;
  ownerHasCloudSync: boolean;
}) {
  return (
    <>
      <p>There are no messages for you here yet.</p>
      {!ownerHasCloudSync && (
        <Alert
          variant="info"
          kind="note"
          title="Why you cannot see messages yet"
          icon={<HardDrive />}
        >
          <p>
            {ownerFirstName} uses Memento Community Edition, which keeps every video only on{' '}
            {ownerFirstName}&rsquo;s own device, for privacy. Nothing is uploaded, so messages
            cannot appear here on their own.
          </p>
          <p>
            Messages reach you when {ownerFirstName}, or their next of kin, passes them on from that
            device as a file you can keep and watch on any computer.
          </p>
        </Alert>
      )}
    </>
  );
}
