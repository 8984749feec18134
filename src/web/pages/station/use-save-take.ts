import { useRef, useState } from 'react';
import type { TStationResident } from '@shared/schemas/stations';
import { saveStationRecording } from '@web/features/stations/stations-api';
import { saveSealedAtStation } from '@web/features/stations/station-key';
import { describeError, isApiError } from '@web/lib/api-client';
import type { TTake } from './use-take-recorder';

/** What a save was for, once it went through. */
export interface TSavedTake {
  recipientName: string;
  isForCareTeam: boolean;
}

/**
 * Saves one take for the resident: sealed here when enhanced encryption is on, else as it is
 * (shared with the care team when asked). Answers what was saved, or null, with the message why.
 */
export function useSaveTake(resident: TStationResident, isSealed: boolean) {
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const isSaving = useRef(false);

  async function save(
    take: TTake,
    recipientId: number,
    isForCareTeam: boolean,
  ): Promise<TSavedTake | null> {
    // A second tap before the button shows it is busy must not save the message twice.
    if (isSaving.current) return null;
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
      return { recipientName: answer.recipientName, isForCareTeam };
    } catch (caught) {
      setError(isApiError(caught) ? caught.message : describeError(caught, 'Please try again.'));
      return null;
    } finally {
      isSaving.current = false;
      setIsBusy(false);
    }
  }

  return { save, isBusy, error, setError };
}
