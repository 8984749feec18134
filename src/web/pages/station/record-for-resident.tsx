import { useEffect, useRef, useState } from 'react';
import type { TStationRecipient, TStationResident } from '@shared/schemas/stations';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { listStationRecipients, saveStationRecording } from '@web/features/stations/stations-api';
import { saveSealedAtStation } from '@web/features/stations/station-key';
import { describeError, isApiError } from '@web/lib/api-client';
import { CareTeamCheckbox, CareTeamNotOffered } from '../care-home/care-team-choice';
import { TakeReview } from './take-review';
import { StationFinishBar } from './station-finish-bar';
import { useTakeRecorder } from './use-take-recorder';

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
  const [isSavedForCareTeam, setIsSavedForCareTeam] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const isSaving = useRef(false);

  useEffect(() => {
    listStationRecipients()
      .then(setRecipients)
      .catch((caught: unknown) => setError(describeError(caught, 'Please try again.')));
  }, []);

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
    // A second tap before the button shows it is busy must not save the message twice.
    if (!take || !recipientId || isSaving.current) return;
    isSaving.current = true;
    setIsBusy(true);
    setError(null);
    try {
      const answer = isSealed
        ? await saveSealedAtStation({
            residentId: resident.id,
            takeId: take.id,
            blob: take.blob,
            recipientId,
            durationMs: take.durationMs,
          })
        : await saveStationRecording({
            takeId: take.id,
            blob: take.blob,
            recipientId,
            durationMs: take.durationMs,
            careTeam: isForCareTeam,
          });
      setSaved(answer.recipientName);
      setIsSavedForCareTeam(isForCareTeam);
      clearTake();
      setRecipientId(null);
      setIsForCareTeam(false);
    } catch (caught) {
      setError(isApiError(caught) ? caught.message : describeError(caught, 'Please try again.'));
    } finally {
      isSaving.current = false;
      setIsBusy(false);
    }
  }

  return (
    <section aria-labelledby="station-record" className="flex flex-col gap-5">
      <h1 id="station-record" className="text-3xl font-bold tracking-tight sm:text-4xl">
        Recording for {resident.name}
      </h1>
      {saved && (
        <Alert variant="success" title="Saved">
          <p>Your message for {saved} is saved.</p>
          {isSavedForCareTeam && <p>The care team at {homeName} can watch it too.</p>}
        </Alert>
      )}
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
