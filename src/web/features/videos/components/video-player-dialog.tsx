import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { formatClock } from '@web/lib/video-format';
import type { TLocalVideo } from '@web/lib/videos/local-store';
import { VideoPlayer } from '@web/components/video-player';
import { lazyDateFormat } from '@web/lib/date-format';

const dateFormat = lazyDateFormat(undefined, { dateStyle: 'long', timeStyle: 'short' });

/**
 * The video player in a dialog (the recipients page): the local copy first, else the cloud
 * copy for paid plans; shows its length and lets the person seek.
 */
export function VideoPlayerDialog({
  video,
  recipientName,
  onOpenChange,
}: {
  video: TLocalVideo | null;
  recipientName: string;
  onOpenChange: (open: boolean) => void;
}) {
  if (!video) return null;

  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle className="break-words">{video.title}</DialogTitle>
          <DialogDescription>
            For {recipientName} · recorded {dateFormat.format(new Date(video.createdAt))} · length{' '}
            {formatClock(video.durationMs)}
          </DialogDescription>
        </DialogHeader>
        <VideoPlayer videoId={video.id} title={video.title} />
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
