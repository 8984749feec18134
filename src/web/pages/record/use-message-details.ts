import { useState } from 'react';
import type { TRecipient } from '@shared/schemas/recipients';
import { NOW_DRAFT, type TReleaseDraft } from '@web/features/legacy/release-wording';
import { usePrompts } from '@web/lib/recipients-api';
import type { TDraftRecording } from '@web/lib/videos/local-store';

const FIELD_MESSAGES = {
  title: 'Please give your message a title',
  recipient: 'Please choose who this message is for',
} as const;

/**
 * What the message is (title, recipient, prompt, when it may be watched), and what is missing,
 * shown only once the person has tried to go on.
 */
export function useMessageDetails(recipients: TRecipient[], preselectedRecipientId: number | null) {
  const [title, setTitle] = useState('');
  const [recipientId, setRecipientId] = useState<number | null>(preselectedRecipientId);
  const [promptId, setPromptId] = useState<string | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  const [release, setRelease] = useState<TReleaseDraft>(NOW_DRAFT);
  const [releaseError, setReleaseError] = useState<string | null>(null);
  // A preselected id that is not one of this person's recipients (an old link) selects nobody.
  const recipient = recipients.find((r) => r.id === recipientId) ?? null;
  const { data: prompts } = usePrompts(recipient?.id ?? null);
  const prompt = prompts?.find((p) => p.id === promptId) ?? null;
  const isReady = title.trim() !== '' && recipient !== null;

  return {
    title,
    setTitle,
    recipient,
    chooseRecipient: (id: number | null) => {
      setRecipientId(id);
      setPromptId(null);
    },
    prompts: prompts ?? [],
    promptId,
    setPromptId,
    prompt,
    release,
    chooseRelease: (next: TReleaseDraft) => {
      setRelease(next);
      setReleaseError(null);
    },
    releaseError,
    setReleaseError,
    titleError: showErrors && !title.trim() ? FIELD_MESSAGES.title : undefined,
    recipientError: showErrors && !recipient ? FIELD_MESSAGES.recipient : undefined,
    isReady,
    /** Shows what is missing; true when the title and the recipient are there. */
    requireDetails: () => {
      setShowErrors(true);
      return isReady;
    },
    /** An interrupted recording brings back what it was for. */
    fillFrom: (draft: TDraftRecording) => {
      setTitle(draft.title);
      setRecipientId(draft.recipientId);
      setPromptId(draft.promptId);
    },
  };
}

export type TMessageDetails = ReturnType<typeof useMessageDetails>;
