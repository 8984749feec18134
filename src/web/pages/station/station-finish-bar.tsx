import { useState } from 'react';
import { Button } from '@web/components/ui/button';

/** Finish, or pause Memento for the resident after a second, plain question. */
export function StationFinishBar({
  residentName,
  isBusy,
  isRecording,
  onFinish,
  onPause,
}: {
  residentName: string;
  isBusy: boolean;
  isRecording: boolean;
  onFinish: () => void;
  onPause: () => Promise<void>;
}) {
  const [isPausing, setIsPausing] = useState(false);
  return (
    <div className="mt-4 flex flex-wrap gap-3 border-t pt-5">
      <Button size="lg" variant="secondary" onClick={onFinish} disabled={isRecording || isBusy}>
        Finish
      </Button>
      {isPausing ? (
        <>
          <p className="w-full">
            Pause Memento for {residentName}? They will not be offered here until it is turned back
            on.
          </p>
          <Button size="lg" variant="destructive" onClick={() => void onPause()}>
            Yes, pause
          </Button>
          <Button size="lg" variant="ghost" onClick={() => setIsPausing(false)}>
            Keep going
          </Button>
        </>
      ) : (
        <Button size="lg" variant="ghost" onClick={() => setIsPausing(true)} disabled={isRecording}>
          Pause Memento for me
        </Button>
      )}
    </div>
  );
}
