import { useEffect, useState } from 'react';
import { AlertTriangle } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { formatClock } from '@web/features/recorder/recording-format';
import { getVideoBlob, type TLocalVideo } from '../local-store';

/** SPEC §8 'Playback'. */
export const PLAYBACK_MESSAGES = {
  notOnDevice: 'Video not available offline',
  unsupported: 'Failed to play video. The video format may not be supported by your browser.',
} as const;

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeStyle: 'short' });

type TSource = { url: string } | { error: string } | null;

/**
 * SPEC §4 video player: loads the video from the local store (Community Edition keeps nothing on
 * the server to fall back to), shows its length and lets the person seek.
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
  const [source, setSource] = useState<TSource>(null);
  const [playbackError, setPlaybackError] = useState<string | null>(null);

  useEffect(() => {
    if (!video) return;
    let url: string | null = null;
    let isCurrent = true;
    getVideoBlob(video)
      .then((blob) => {
        if (!isCurrent) return;
        if (blob.size === 0) {
          setSource({ error: PLAYBACK_MESSAGES.notOnDevice });
          return;
        }
        url = URL.createObjectURL(blob);
        setSource({ url });
      })
      .catch(() => isCurrent && setSource({ error: PLAYBACK_MESSAGES.notOnDevice }));
    return () => {
      isCurrent = false;
      if (url) URL.revokeObjectURL(url);
      setSource(null);
      setPlaybackError(null);
    };
  }, [video]);

  if (!video) return null;
  const error = source && 'error' in source ? source.error : playbackError;

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
        {error ? (
          <Alert
            variant="destructive"
            title="This video cannot be played"
            icon={<AlertTriangle aria-hidden="true" />}
          >
            <p>{error}</p>
          </Alert>
        ) : source && 'url' in source ? (
          <video
            src={source.url}
            controls
            autoPlay
            playsInline
            className="aspect-video w-full rounded-lg bg-black"
            aria-label={`Video: ${video.title}`}
            data-testid="video-player"
            onError={() => setPlaybackError(PLAYBACK_MESSAGES.unsupported)}
          />
        ) : (
          <p role="status" className="text-lg">
            Loading video...
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
