import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '@web/components/ui/use-toast';
import { readDraft } from '@web/features/legacy/release-wording';
import type { TRecording } from '@web/features/recorder/use-recorder';
import { saveRecording } from '@web/features/videos/save-recording';
import { describeError } from '@web/lib/api-client';
import { RECIPIENTS_QUERY_KEY } from '@web/lib/recipients-api';
import { VIDEO_INDEX_QUERY_KEY } from '@web/lib/videos/videos-api';
import type { TCareTeamChoice } from '../care-home/care-team-choice';
import type { TMessageDetails } from './use-message-details';

/** After a successful save the person goes home after 1000 ms, time to see it saved. */
const NAVIGATE_AFTER_SAVE_MS = 1000;

/** Saving the recording with its details on this device, then going home; or why it failed. */
export function useSaveMessage(
  userId: number,
  details: TMessageDetails,
  careTeam?: TCareTeamChoice,
) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [isSaving, setIsSaving] = useState(false);
  const [isSaved, setIsSaved] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);

  async function save(recording: TRecording | null) {
    const { recipient } = details;
    if (!recording || !details.requireDetails() || !recipient) return;
    const chosen = readDraft(details.release);
    details.setReleaseError(chosen.error);
    if (!chosen.release) return;
    setIsSaving(true);
    setSaveError(null);
    try {
      const { video, isIndexed } = await saveRecording({
        id: recording.draftId,
        creatorId: userId,
        recipientId: recipient.id,
        title: details.title.trim(),
        promptId: details.promptId,
        blob: recording.blob,
        durationMs: recording.durationMs,
        isMobile: /Mobi|Android|iPhone|iPad/i.test(navigator.userAgent),
        release: chosen.release,
      });
      void queryClient.invalidateQueries({ queryKey: VIDEO_INDEX_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: RECIPIENTS_QUERY_KEY });
      const careTeamNote = (await careTeam?.shareSaved(video.id, isIndexed)) ?? null;
      const kept = isIndexed
        ? `Your message for ${recipient.firstName} is kept safely on this device.`
        : `Your message for ${recipient.firstName} is kept safely on this device. Your account will be told about it when you are back online.`;
      toast({
        variant: 'success',
        title: 'Video saved',
        description: careTeamNote ? `${kept} ${careTeamNote}` : kept,
      });
      setIsSaved(true);
      setTimeout(() => navigate('/'), NAVIGATE_AFTER_SAVE_MS);
    } catch (reason) {
      const message = describeError(reason, 'Failed to save video: please try again.');
      setSaveError(message);
      setIsSaving(false);
      toast({ variant: 'destructive', title: 'Your video was not saved', description: message });
    }
  }

  return { save, isSaving, isSaved, saveError };
}
