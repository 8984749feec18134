import { Info, MicOff, Sparkles, TimerReset, VideoOff } from 'lucide-react';
import { Link } from 'react-router';
import { PLANS } from '@shared/domain/plans';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { describeSeconds, formatClock } from '@web/lib/video-format';
import { isAndroidTablet } from '../recording-format';
import type { TRecorder, TRecording } from '../use-recorder';

const LONGEST_RECORDING_SECONDS = Math.max(...PLANS.map((plan) => plan.maxRecordingSeconds));

/** While recording: the 10-second warning, what went wrong, a full device, the wait at the end. */
export function RecorderNotices({
  recorder,
  maxSeconds,
}: {
  recorder: TRecorder;
  maxSeconds: number;
}) {
  const { status, problem } = recorder;
  const showsAndroidNotice =
    status === 'stopping' &&
    isAndroidTablet(navigator.userAgent, { width: screen.width, height: screen.height });
  return (
    <>
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
    </>
  );
}

/** Under the finished recording: why it stopped at the plan's limit, silence, what to do next. */
export function FinishedRecordingNotes({
  recording,
  maxSeconds,
}: {
  recording: TRecording;
  maxSeconds: number;
}) {
  return (
    <div className="flex flex-col gap-3">
      {recording.wasStoppedAtLimit && (
        <Alert
          variant="info"
          kind="note"
          title="Recording stopped at your plan’s limit"
          icon={<TimerReset aria-hidden="true" />}
        >
          <p>
            Your plan records up to {describeSeconds(maxSeconds)}. Everything up to that point has
            been kept.
          </p>
          {maxSeconds < LONGEST_RECORDING_SECONDS && (
            <>
              <p>The paid plans record longer messages. Save this one first, then have a look.</p>
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
        Watch your recording ({formatClock(recording.durationMs)}). If you are happy with it, save
        it. It is kept on this device.
      </p>
    </div>
  );
}
