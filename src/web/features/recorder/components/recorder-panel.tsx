import { useEffect, useId, useRef } from 'react';
import {
  Camera,
  Circle,
  Info,
  MicOff,
  RotateCcw,
  Save,
  Sparkles,
  Square,
  TimerReset,
  VideoOff,
} from 'lucide-react';
import { Link } from 'react-router';
import { PLANS } from '@shared/domain/plans';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Label } from '@web/components/ui/label';
import { cn } from '@web/lib/utils';
import { describeSeconds, formatClock } from '@web/lib/video-format';
import { isAndroidTablet } from '../recording-format';
import type { TRecorderStatus, useRecorder } from '../use-recorder';
import { AudioLevelMeter } from './audio-level-meter';

type TRecorder = ReturnType<typeof useRecorder>;

const LONGEST_RECORDING_SECONDS = Math.max(...PLANS.map((plan) => plan.maxRecordingSeconds));

interface RecorderPanelProps {
  recorder: TRecorder;
  maxSeconds: number;
  /** Checks the title and recipient (showing what is missing), then turns it on. */
  onTurnOnCamera: () => void;
  onStart: () => void;
  onSave: () => void;
  isSaving: boolean;
  /** Saved: the page moves on in a moment. */
  isSaved?: boolean;
}

const selectClass =
  'min-h-12 w-full rounded-lg border-2 border-input bg-card px-3 text-base text-foreground';

/** The live camera, mirrored like a mirror, or the finished recording with its controls. */
function RecorderScreen({ recorder }: { recorder: TRecorder }) {
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

function DevicePickers({ recorder }: { recorder: TRecorder }) {
  const cameraId = useId();
  const microphoneId = useId();
  const { devices, status } = recorder;
  const isLocked = status !== 'ready';
  if (devices.cameras.length === 0 && devices.microphones.length === 0) return null;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="flex flex-col gap-2">
        <Label htmlFor={cameraId}>Camera</Label>
        <select
          id={cameraId}
          className={selectClass}
          value={devices.cameraId ?? devices.cameras[0]?.deviceId ?? ''}
          onChange={(event) => recorder.changeCamera(event.target.value)}
          disabled={isLocked}
        >
          {devices.cameras.map((camera) => (
            <option key={camera.deviceId} value={camera.deviceId}>
              {camera.label}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={microphoneId}>Microphone</Label>
        <select
          id={microphoneId}
          className={selectClass}
          value={devices.microphoneId ?? devices.microphones[0]?.deviceId ?? ''}
          onChange={(event) => recorder.changeMicrophone(event.target.value)}
          disabled={isLocked}
        >
          {devices.microphones.map((microphone) => (
            <option key={microphone.deviceId} value={microphone.deviceId}>
              {microphone.label}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

function TimeLine({ recorder, maxSeconds }: { recorder: TRecorder; maxSeconds: number }) {
  const { elapsedMs, remainingMs, isNearLimit } = recorder;
  const percent = Math.min(100, (elapsedMs / (maxSeconds * 1000)) * 100);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-baseline justify-between gap-4 text-lg tabular-nums">
        <span>
          <span className="font-bold">{formatClock(elapsedMs)}</span> recorded
        </span>
        <span data-testid="time-left" className={cn(isNearLimit && 'font-bold text-destructive')}>
          {formatClock(remainingMs)} left
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Recording time used"
        aria-valuemin={0}
        aria-valuemax={maxSeconds}
        aria-valuenow={Math.floor(elapsedMs / 1000)}
        aria-valuetext={`${formatClock(elapsedMs)} of ${formatClock(maxSeconds * 1000)}`}
        className="h-3 overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn('h-full rounded-full', isNearLimit ? 'bg-destructive' : 'bg-primary')}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

interface TMainActionHandlers {
  onTurnOnCamera: () => void;
  onStart: () => void;
  onCancel: () => void;
  onStop: () => void;
  onSave: () => void;
  isSaving: boolean;
  isUnsupported: boolean;
}

/** What the one main button says and does in each state of the recorder. */
function describeMainAction(status: TRecorderStatus, handlers: TMainActionHandlers) {
  switch (status) {
    case 'ready':
      return {
        label: 'Start Recording',
        icon: <Circle className="fill-current" aria-hidden="true" />,
        variant: 'default' as const,
        onClick: handlers.onStart,
        isWaiting: false,
        isDisabled: false,
      };
    case 'countdown':
      return {
        label: 'Cancel',
        icon: null,
        variant: 'outline' as const,
        onClick: handlers.onCancel,
        isWaiting: false,
        isDisabled: false,
      };
    case 'recording':
    case 'stopping':
      return {
        label: 'Stop Recording',
        icon: <Square className="fill-current" aria-hidden="true" />,
        variant: 'destructive' as const,
        onClick: handlers.onStop,
        isWaiting: status === 'stopping',
        isDisabled: false,
      };
    case 'recorded':
      return {
        label: handlers.isSaving ? 'Saving...' : 'Save Message',
        icon: <Save aria-hidden="true" />,
        variant: 'default' as const,
        onClick: handlers.onSave,
        isWaiting: handlers.isSaving,
        isDisabled: false,
      };
    default:
      return {
        label: 'Turn On Camera',
        icon: <Camera aria-hidden="true" />,
        variant: 'default' as const,
        onClick: handlers.onTurnOnCamera,
        isWaiting: status === 'starting',
        isDisabled: handlers.isUnsupported,
      };
  }
}

/**
 * The Record page's recorder: pickers, mirrored preview, countdown, timer with time left,
 * large Start/Stop, live level, the 10-second warning, then preview with 'Save' and 'Record Again'.
 */
export function RecorderPanel({
  recorder,
  maxSeconds,
  onTurnOnCamera,
  onStart,
  onSave,
  isSaving,
  isSaved = false,
}: RecorderPanelProps) {
  const { status, problem, recording } = recorder;
  const isBusy = status === 'recording' || status === 'countdown' || status === 'stopping';
  const showsAndroidNotice =
    status === 'stopping' &&
    isAndroidTablet(navigator.userAgent, { width: screen.width, height: screen.height });

  const action = describeMainAction(status, {
    onTurnOnCamera,
    onStart,
    onCancel: recorder.cancelCountdown,
    onStop: () => recorder.stop(),
    onSave,
    isSaving,
    isUnsupported: problem?.kind === 'unsupported',
  });

  return (
    <div className="flex flex-col gap-5">
      <RecorderScreen recorder={recorder} />

      {(status === 'ready' || isBusy) && (
        <div className="flex flex-col gap-4">
          <TimeLine recorder={recorder} maxSeconds={maxSeconds} />
          <AudioLevelMeter level={recorder.audioLevel} />
        </div>
      )}

      {/*
        Announced to screen readers: the countdown, the start, the warning, the stop and the
        save, whose only other sign is the button's words.
      */}
      <p role="status" aria-live="polite" className="sr-only">
        {status === 'countdown' && `Recording starts in ${recorder.countdown}`}
        {status === 'recording' && !recorder.isNearLimit && 'Recording'}
        {recorder.isNearLimit && '10 seconds left'}
        {status === 'recorded' && !isSaving && 'Recording finished. Watch it, then save it.'}
        {status === 'recorded' && isSaving && !isSaved && 'Saving your message...'}
        {isSaved && 'Your message is saved. Going back to the home page.'}
      </p>

      {recorder.isNearLimit && (
        <Alert
          variant="warm"
          title="About 10 seconds left"
          icon={<TimerReset aria-hidden="true" />}
        >
          <p>
            Your plan records up to {describeSeconds(maxSeconds)}. The recording will stop by itself
            and nothing will be lost. Now is a good moment to say goodbye.
          </p>
        </Alert>
      )}

      {problem && (
        <Alert variant="destructive" title={problem.title} icon={<VideoOff aria-hidden="true" />}>
          <p>{problem.message}</p>
        </Alert>
      )}

      {recorder.isUnprotected && (
        <Alert variant="warm" title="This device is running out of space">
          <p>
            Part of this recording could not be kept safe while recording. Save it as soon as you
            stop, and free some space on this device.
          </p>
        </Alert>
      )}

      {status === 'stopping' && (
        <p role="status" className="flex items-center gap-2 text-lg">
          <Info className="size-5 text-primary" aria-hidden="true" />
          Preparing your recording...
          {showsAndroidNotice && ' On this tablet this can take a few seconds; please wait.'}
        </p>
      )}

      {recording && status === 'recorded' && (
        <div className="flex flex-col gap-3">
          {recording.wasStoppedAtLimit && (
            <Alert
              variant="info"
              kind="note"
              title="Recording stopped at your plan’s limit"
              icon={<TimerReset aria-hidden="true" />}
            >
              <p>
                Your plan records up to {describeSeconds(maxSeconds)}. Everything up to that point
                has been kept.
              </p>
              {maxSeconds < LONGEST_RECORDING_SECONDS && (
                <>
                  <p>
                    The paid plans record longer messages. Save this one first, then have a look.
                  </p>
                  <div>
                    <Button asChild variant="outline">
                      <Link to="/premium">
                        <Sparkles aria-hidden="true" />
                        See plans with longer messages
                      </Link>
                    </Button>
                  </div>
                </>
              )}
            </Alert>
          )}
          {!recording.hasSound && (
            <Alert
              variant="warm"
              title="We could not hear anything"
              icon={<MicOff aria-hidden="true" />}
            >
              <p>
                The microphone recorded silence. Check that the right microphone is chosen and not
                muted, then press Record Again. You can still save this recording if you meant it.
              </p>
            </Alert>
          )}
          <p className="text-lg">
            Watch your recording ({formatClock(recording.durationMs)}). If you are happy with it,
            save it. It is kept on this device.
          </p>
        </div>
      )}

      {(status === 'ready' || isBusy) && <DevicePickers recorder={recorder} />}

      <div className="flex flex-col gap-3 sm:flex-row">
        {/*
          One button for the main action in every state, so keyboard focus stays on it from
          'Turn On Camera' to 'Save Message' instead of falling back to the page.
        */}
        <Button
          size="lg"
          variant={action.variant}
          onClick={action.isWaiting ? undefined : action.onClick}
          aria-disabled={action.isWaiting || undefined}
          disabled={action.isDisabled}
          className={cn(action.isWaiting && 'cursor-wait opacity-70')}
        >
          {action.icon}
          {action.label}
        </Button>
        {status === 'recorded' && (
          <Button
            size="lg"
            variant="outline"
            onClick={() => void recorder.recordAgain()}
            disabled={isSaving}
          >
            <RotateCcw aria-hidden="true" />
            Record Again
          </Button>
        )}
      </div>
    </div>
  );
}
