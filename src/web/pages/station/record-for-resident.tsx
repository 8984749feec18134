import { useEffect, useState } from 'react';
import type { TStationRecipient, TStationResident } from '@shared/schemas/stations';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { listStationRecipients } from '@web/features/stations/stations-api';
import { describeError } from '@web/lib/api-client';
import { CareTeamCheckbox, CareTeamNotOffered } from '../care-home/care-team-choice';
import { TakeReview } from './take-review';
import { StationFinishBar } from './station-finish-bar';
import { useSaveTake, type TSavedTake } from './use-save-take';
import { useTakeRecorder } from './use-take-recorder';

/** What the last save said: the message is safe, and who else may watch it. */
function SavedNotice({ saved, homeName }: { saved: TSavedTake; homeName: string }) {
  return (
    <Alert variant="success" title="Saved">
      <p>Your message for {saved.recipientName} is saved.</p>
      {saved.isForCareTeam && <p>The care team at {homeName} can watch it too.</p>}
    </Alert>
  );
}

/** The resident records, watches it back, chooses who it is for, and saves. */
export function RecordForResident({
  resident,
  homeName,
  isSealed = false,
  onFinish,
  onPause,
}: {
  resident: TStationResident;
  homeName: string;
  /** Enhanced encryption on: each take is sealed here, and a sealed message is not shared. */
  isSealed?: boolean;
  onFinish: () => void;
  onPause: () => Promise<void>;
}) {
  const { previewRef, isRecording, take, clearTake, start, stop } = useTakeRecorder();
  const [recipients, setRecipients] = useState<TStationRecipient[]>([]);
  const [recipientId, setRecipientId] = useState<number | null>(null);
  const [isForCareTeam, setIsForCareTeam] = useState(false);
  const [saved, setSaved] = useState<TSavedTake | null>(null);
  const { save: saveTake, isBusy, error, setError } = useSaveTake(resident, isSealed);

  useEffect(() => {
    listStationRecipients()
      .then(setRecipients)
      .catch((caught: unknown) => setError(describeError(caught, 'Please try again.')));
    // Once: a state setter never changes.
  }, [setError]);

  async function begin() {
    setError(null);
    setSaved(null);
    try {
      await start();
    } catch (caught) {
      setError(
        caught instanceof DOMException
          ? 'The camera could not start. Please check it is allowed for this page.'
          : describeError(caught, 'Please try again.'),
      );
    }
  }

  async function save() {
    if (!take || !recipientId) return;
    const answer = await saveTake(take, recipientId, isForCareTeam);
    if (!answer) return;
    setSaved(answer);
    clearTake();
    setRecipientId(null);
    setIsForCareTeam(false);
  }

  return (
    <section aria-labelledby="station-record" className="flex flex-col gap-5">
      <h1 id="station-record" className="text-3xl font-bold tracking-tight sm:text-4xl">
        Recording for {resident.name}
      </h1>
      {saved && <SavedNotice saved={saved} homeName={homeName} />}
      {error && (
        <Alert variant="destructive" title="Something went wrong">
          <p>{error}</p>
        </Alert>
      )}
      {!take && (
        <>
          <video
            ref={previewRef}
            autoPlay
            muted
            playsInline
            aria-label="What the camera sees"
            className="aspect-video w-full rounded-lg bg-black"
          />
          {isRecording ? (
            <Button size="lg" variant="destructive" className="self-start" onClick={stop}>
              Stop recording
            </Button>
          ) : (
            <Button size="lg" className="self-start" onClick={() => void begin()}>
              {saved ? 'Record another message' : 'Start recording'}
            </Button>
          )}
        </>
      )}
      {take && (
        <>
          <TakeReview
            takeUrl={take.url}
            recipients={recipients}
            recipientId={recipientId}
            isBusy={isBusy}
            careTeamChoice={
              isSealed ? (
                <CareTeamNotOffered homeName={homeName} whyNot="sealed" />
              ) : (
                <CareTeamCheckbox
                  homeName={homeName}
                  checked={isForCareTeam}
                  onCheckedChange={setIsForCareTeam}
                  disabled={isBusy}
                />
              )
            }
            onChoose={setRecipientId}
            onSave={() => void save()}
            onRecordAgain={clearTake}
          />
        </>
      )}
      <StationFinishBar
        residentName={resident.name}
        isBusy={isBusy}
        isRecording={isRecording}
        onFinish={onFinish}
        onPause={onPause}
      />
    </section>
  );
}
