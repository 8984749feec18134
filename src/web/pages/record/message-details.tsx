import { Lightbulb } from 'lucide-react';
import type { TRecipient } from '@shared/schemas/recipients';
import { FormField } from '@web/components/ui/form-field';
import { ReleaseChoice } from '@web/features/legacy/components/release-choice';
import { CareTeamChoice, type TCareTeamChoice } from '../care-home/care-team-choice';
import { PromptSelect, RecipientSelect } from './message-selects';
import type { TMessageDetails } from './use-message-details';

interface MessageDetailsProps {
  details: TMessageDetails;
  recipients: TRecipient[];
  /** For a resident of a care home: also share it with the care team. */
  careTeam?: TCareTeamChoice;
  /** While recording, what the recording is for stays as it is. */
  isLocked: boolean;
  isSaving: boolean;
}

/** Step 1 of the Record page: the title, who it is for, a prompt, and when it may be watched. */
export function MessageDetails({
  details,
  recipients,
  careTeam,
  isLocked,
  isSaving,
}: MessageDetailsProps) {
  const { recipient, prompt } = details;
  return (
    <section aria-labelledby="details-heading" className="flex flex-col gap-5">
      <h2 id="details-heading" className="text-2xl font-bold tracking-tight">
        1. About your message
      </h2>
      <FormField
        label="Message title"
        isRequired
        value={details.title}
        onChange={(event) => details.setTitle(event.target.value)}
        maxLength={200}
        placeholder="For example: Happy birthday, Tom"
        disabled={isLocked}
        error={details.titleError}
      />
      <RecipientSelect
        recipients={recipients}
        value={recipient?.id ?? null}
        onChange={details.chooseRecipient}
        disabled={isLocked}
        error={details.recipientError}
      />
      {careTeam && <CareTeamChoice choice={careTeam} />}
      {recipient && (
        <PromptSelect
          prompts={details.prompts}
          value={details.promptId}
          onChange={details.setPromptId}
          disabled={isLocked}
        />
      )}
      {prompt && (
        <aside
          aria-label="Your prompt"
          className="flex gap-3 rounded-xl border-2 border-primary/25 bg-primary-soft p-4"
        >
          <Lightbulb className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
          <div className="flex flex-col gap-1">
            <p className="text-lg font-bold">{prompt.title}</p>
            <p className="text-lg">{prompt.description}</p>
          </div>
        </aside>
      )}
      <ReleaseChoice
        value={details.release}
        onChange={details.chooseRelease}
        error={details.releaseError}
        disabled={isSaving}
      />
    </section>
  );
}
