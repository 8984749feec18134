import type { Ref } from 'react';
import { Alert } from '@web/components/ui/alert';
import { RecorderPanel } from '@web/features/recorder/components/recorder-panel';
import type { TRecorder } from '@web/features/recorder/use-recorder';
import { describeSeconds } from '@web/lib/video-format';

interface RecordSectionProps {
  ref: Ref<HTMLElement>;
  recorder: TRecorder;
  maxSeconds: number;
  /** The title and the recipient are there. */
  isReady: boolean;
  onTurnOnCamera: () => void;
  onStart: () => void;
  onSave: () => void;
  saving: { isSaving: boolean; isSaved: boolean; saveError: string | null };
}

/** Step 2 of the Record page: the recorder, and why a save failed. */
export function RecordSection({
  ref,
  recorder,
  maxSeconds,
  isReady,
  onTurnOnCamera,
  onStart,
  onSave,
  saving,
}: RecordSectionProps) {
  return (
    <section
      ref={ref}
      aria-labelledby="record-heading"
      className="flex scroll-mt-24 flex-col gap-4"
    >
      <div className="flex flex-col gap-1">
        <h2 id="record-heading" className="text-2xl font-bold tracking-tight">
          2. Record
        </h2>
        <p className="text-base text-muted-foreground">
          {isReady
            ? `Recordings can be up to ${describeSeconds(maxSeconds)} long. A countdown of 3 seconds comes before the recording starts.`
            : 'Give your message a title and choose who it is for, then turn on your camera.'}
        </p>
      </div>
      <RecorderPanel
        recorder={recorder}
        maxSeconds={maxSeconds}
        onTurnOnCamera={onTurnOnCamera}
        onStart={onStart}
        onSave={onSave}
        isSaving={saving.isSaving}
        isSaved={saving.isSaved}
      />
      {saving.saveError && (
        <Alert variant="destructive" title="Your video was not saved">
          <p>{saving.saveError}</p>
          <p>Your recording is still here. Please press Save Message again.</p>
        </Alert>
      )}
    </section>
  );
}
