import { useState } from 'react';
import { AlertTriangle } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import {
  PLAYBACK_MESSAGES,
  useVideoSource,
  type TKeepLocally,
} from '@web/lib/videos/use-video-source';

/** The player itself, for a dialog or inline on a page: it shows the length and can seek. */
export function VideoPlayer({
  videoId,
  title,
  keepLocally,
  autoPlay = true,
}: {
  videoId: string;
  title: string;
  keepLocally?: TKeepLocally;
  autoPlay?: boolean;
}) {
  const source = useVideoSource(videoId, keepLocally ? { keepLocally } : {});
  const [playbackError, setPlaybackError] = useState<string | null>(null);
  const error = source.state === 'error' ? source.message : playbackError;

  if (error || source.state === 'error') {
    return (
      <Alert
        variant="destructive"
        title="This video cannot be played"
        icon={<AlertTriangle aria-hidden="true" />}
      >
        <p>{error ?? (source.state === 'error' ? source.message : '')}</p>
      </Alert>
    );
  }
  if (source.state === 'loading') {
    return (
      <p role="status" className="text-lg">
        Loading video...
      </p>
    );
  }
  return (
    <video
      src={source.url}
      controls
      autoPlay={autoPlay}
      playsInline
      preload="metadata"
      className="aspect-video w-full rounded-lg bg-black"
      aria-label={`Video: ${title}`}
      data-testid="video-player"
      data-source={source.isLocal ? 'device' : 'cloud'}
      onError={() =>
        setPlaybackError(
          source.isLocal ? PLAYBACK_MESSAGES.unsupported : PLAYBACK_MESSAGES.serverFailed,
        )
      }
    />
  );
}
