import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Users, X } from 'lucide-react';
import type { TCareTeamShareState, TResidentShare } from '@shared/schemas/care-team';
import { Button } from '@web/components/ui/button';
import {
  CARE_TEAM_MINE_KEY,
  shareWithCareTeam,
  stopSharingWithCareTeam,
  useMyCareTeam,
} from '@web/features/care-homes/care-team-api';
import { describeError } from '@web/lib/api-client';
import { lazyDateFormat } from '@web/lib/date-format';
import { careTeamWhyNot } from './care-team-choice';

const dateFormat = lazyDateFormat(undefined, { dateStyle: 'long' });

const STATE_WORDS: Record<TCareTeamShareState, string> = {
  watchable: 'The care team can watch it.',
  waiting_for_copy: 'The care team can watch it once it has reached the cloud.',
  not_open_yet: 'The care team can watch it once it opens, as you chose for it.',
  sealed: 'It is sealed: the care team cannot open it.',
};

const titleOf = (share: TResidentShare) =>
  share.title ?? `A message recorded on ${dateFormat.format(new Date(share.createdAt))}`;

/** Shares or stops sharing one message, then reads the list again; the failure in words. */
function useShareToggle() {
  const queryClient = useQueryClient();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function toggle(videoId: string, share: boolean) {
    setBusyId(videoId);
    setError(null);
    try {
      await (share ? shareWithCareTeam(videoId) : stopSharingWithCareTeam(videoId));
      await queryClient.invalidateQueries({ queryKey: CARE_TEAM_MINE_KEY });
    } catch (reason) {
      setError(describeError(reason, 'Please try again.'));
    } finally {
      setBusyId(null);
    }
  }
  return { busyId, error, toggle };
}

/**
 * On a resident's own dashboard, inside their home's card: what they share with the care team,
 * each with 'Stop sharing'; or why nothing can be shared from this tablet.
 */
export function MyCareTeamShares() {
  const { data } = useMyCareTeam();
  const { busyId, error, toggle } = useShareToggle();
  if (!data?.home) return null;
  const { home, whyNot, shares } = data;
  return (
    <div className="flex flex-col gap-3 border-t-2 pt-4">
      <h3 className="flex items-center gap-2 text-xl font-bold">
        <Users className="size-6 text-primary" aria-hidden="true" />
        Shared with the care team
      </h3>
      {whyNot && <p>{careTeamWhyNot(whyNot)}</p>}
      {shares.length === 0 ? (
        <p>
          You share no messages with the care team at {home.name}. To share one, tick &lsquo;Also
          share with the care team&rsquo; when you record it.
        </p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Messages you share with the care team">
          {shares.map((share) => (
            <li
              key={share.videoId}
              className="flex flex-col gap-3 rounded-lg border-2 p-4 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="flex min-w-0 flex-col gap-1">
                <p className="font-semibold break-words">{titleOf(share)}</p>
                <p className="text-base text-muted-foreground">{STATE_WORDS[share.state]}</p>
              </div>
              <Button
                variant="outline"
                disabled={busyId === share.videoId}
                onClick={() => void toggle(share.videoId, false)}
              >
                <X aria-hidden="true" />
                Stop sharing
                <span className="sr-only"> {titleOf(share)}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" className="font-semibold text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Under a message in 'View Videos', for a resident who can share from here: whether the care
 * team sees it, and the one button that changes that.
 */
export function CareTeamMessageControl({ videoId, title }: { videoId: string; title: string }) {
  const { data } = useMyCareTeam();
  const { busyId, error, toggle } = useShareToggle();
  if (!data?.home || data.whyNot) return null;
  const isShared = data.shares.some((share) => share.videoId === videoId);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="flex min-w-0 items-center gap-2 text-base">
          <Users className="size-5 shrink-0 text-primary" aria-hidden="true" />
          {isShared
            ? `Shared with the care team at ${data.home.name}`
            : `Not shared with the care team at ${data.home.name}`}
        </p>
        <Button
          variant="outline"
          className="shrink-0"
          disabled={busyId === videoId}
          onClick={() => void toggle(videoId, !isShared)}
        >
          {isShared ? 'Stop sharing' : 'Share'}
          <span className="sr-only"> with the care team: {title}</span>
        </Button>
      </div>
      {error && (
        <p role="alert" className="font-semibold text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
