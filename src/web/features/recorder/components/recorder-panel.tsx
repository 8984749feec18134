import type { TRecorder } from '../use-recorder';
import { AudioLevelMeter } from './audio-level-meter';
import { DevicePickers } from './device-pickers';
import { RecorderButtons } from './recorder-buttons';
import { FinishedRecordingNotes, RecorderNotices } from './recorder-notices';
import { RecorderScreen } from './recorder-screen';
import { TimeLine } from './time-line';

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
  const { status, recording } = recorder;
  const isBusy = status === 'recording' || status === 'countdown' || status === 'stopping';

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

      <RecorderNotices recorder={recorder} maxSeconds={maxSeconds} />

      {recording && status === 'recorded' && (
        <FinishedRecordingNotes recording={recording} maxSeconds={maxSeconds} />
      )}

      {(status === 'ready' || isBusy) && <DevicePickers recorder={recorder} />}

      <RecorderButtons
        recorder={recorder}
        onTurnOnCamera={onTurnOnCamera}
        onStart={onStart}
        onSave={onSave}
        isSaving={isSaving}
      />
    </div>
  );
}
