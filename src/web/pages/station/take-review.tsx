import type { ReactNode } from 'react';
import type { TStationRecipient } from '@shared/schemas/stations';
import { Button } from '@web/components/ui/button';

/** Names only, large enough to tap: who the message is for. */
function RecipientChoice({
  recipients,
  recipientId,
  onChoose,
}: {
  recipients: TStationRecipient[];
  recipientId: number | null;
  onChoose: (id: number) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 text-2xl font-bold">Who is this message for?</legend>
      {recipients.map((recipient) => (
        <label
          key={recipient.id}
          className="flex min-h-14 cursor-pointer items-center gap-3 rounded-lg border-2 px-4 text-lg"
        >
          <input
            type="radio"
            name="station-recipient"
            className="size-6"
            checked={recipientId === recipient.id}
            onChange={() => onChoose(recipient.id)}
          />
          {recipient.name}
        </label>
      ))}
    </fieldset>
  );
}

/** The take played back, who it is for, then save it or record again. */
export function TakeReview({
  takeUrl,
  recipients,
  recipientId,
  isBusy,
  careTeamChoice,
  onChoose,
  onSave,
  onRecordAgain,
}: {
  takeUrl: string;
  recipients: TStationRecipient[];
  recipientId: number | null;
  isBusy: boolean;
  /** 'Also share with the care team', under who it is for. */
  careTeamChoice?: ReactNode;
  onChoose: (id: number) => void;
  onSave: () => void;
  onRecordAgain: () => void;
}) {
  return (
    <>
      <h2 className="text-2xl font-bold">Watch it back</h2>
      <video
        src={takeUrl}
        controls
        playsInline
        aria-label="Your message"
        className="aspect-video w-full rounded-lg bg-black"
      />
      <RecipientChoice recipients={recipients} recipientId={recipientId} onChoose={onChoose} />
      {careTeamChoice}
      <div className="flex flex-wrap gap-3">
        <Button size="lg" disabled={!recipientId || isBusy} onClick={onSave}>
          {isBusy ? 'Saving…' : 'Save the message'}
        </Button>
        <Button size="lg" variant="outline" disabled={isBusy} onClick={onRecordAgain}>
          Record again
        </Button>
      </div>
    </>
  );
}
