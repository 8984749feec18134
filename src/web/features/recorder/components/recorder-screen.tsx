import { useEffect, useRef } from 'react';
import { Circle, VideoOff } from 'lucide-react';
import { formatClock } from '@web/lib/video-format';
import type { TRecorder } from '../use-recorder';

/** The live camera, mirrored like a mirror, or the finished recording with its controls. */
export function RecorderScreen({ recorder }: { recorder: TRecorder }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const { status, stream, recording, countdown, elapsedMs } = recorder;
  const previewUrl = recording?.url ?? null;

  useEffect(() => {
    const video = videoRef.current;
    if (!video || status === 'recorded') return;
    video.srcObject = stream;
    if (stream) void video.play().catch(() => undefined);
  }, [stream, status]);

  const isLive = stream !== null && status !== 'recorded';
  return (
    <div className="relative aspect-video w-full overflow-hidden rounded-xl bg-[#1b1714] shadow-soft">
      {status === 'recorded' && previewUrl ? (
        <video
          key={previewUrl}
          src={previewUrl}
          controls
          playsInline
          className="size-full bg-black object-contain"
          aria-label="Your recording"
          data-testid="recording-preview"
        />
      ) : (
        // Made only once the camera is on: a page's first video element sets up the browser's
        // media player, a task too long to spend while the page opens.
        isLive && (
          <video
            ref={videoRef}
            muted
            playsInline
            autoPlay
            aria-label="Camera preview"
            className="size-full -scale-x-100 object-cover"
            data-testid="camera-preview"
          />
        )
      )}
      {!isLive && status !== 'recorded' && (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-6 text-center text-white/85">
          <VideoOff className="size-12" aria-hidden="true" />
          <p className="text-lg">
            {status === 'starting' ? 'Turning on your camera...' : 'Your camera is off'}
          </p>
        </div>
      )}
      {status === 'countdown' && (
        <div
          className="absolute inset-0 flex items-center justify-center bg-black/40"
          aria-hidden="true"
        >
          <span className="text-8xl font-bold text-white tabular-nums drop-shadow-lg">
            {countdown}
          </span>
        </div>
      )}
      {(status === 'recording' || status === 'stopping') && (
        <div className="absolute top-3 left-3 flex items-center gap-2 rounded-full bg-black/65 px-4 py-2 text-lg font-semibold text-white">
          <Circle className="size-4 animate-pulse fill-red-500 text-red-500" aria-hidden="true" />
          Recording {formatClock(elapsedMs)}
        </div>
      )}
    </div>
  );
}
