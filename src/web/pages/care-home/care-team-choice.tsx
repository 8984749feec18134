import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { CARE_TEAM_MESSAGES, type TCareTeamWhyNot } from '@shared/schemas/care-team';
import { Alert } from '@web/components/ui/alert';
import { Checkbox } from '@web/components/ui/checkbox';
import { Label } from '@web/components/ui/label';
import {
  CARE_TEAM_MINE_KEY,
  shareWithCareTeam,
  useMyCareTeam,
} from '@web/features/care-homes/care-team-api';
import { describeError } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';

/** Why a resident cannot share from here, in the words the server uses. */
export function careTeamWhyNot(whyNot: TCareTeamWhyNot): string {
  return whyNot === 'sealed' ? CARE_TEAM_MESSAGES.sealed : CARE_TEAM_MESSAGES.onDevice;
}

/**
 * "Also share with the care team at <home>": one row the size of a finger, with what it means
 * beneath. The Record page and the recording station both show it.
 */
export function CareTeamCheckbox({
  homeName,
  checked,
  onCheckedChange,
  disabled = false,
}: {
  homeName: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div
      className={cn(
        'flex items-start gap-4 rounded-lg border-2 p-4 transition-colors',
        checked ? 'border-primary/50 bg-primary-soft' : 'border-border bg-card',
      )}
    >
      <Checkbox
        id={id}
        checked={checked}
        disabled={disabled}
        onCheckedChange={(value) => onCheckedChange(value === true)}
        aria-describedby={`${id}-hint`}
        className="-mt-1.5"
      />
      <div className="flex min-w-0 flex-col gap-1">
        <Label htmlFor={id} className="cursor-pointer text-lg font-semibold">
          Also share with the care team at {homeName}
        </Label>
        <p id={`${id}-hint`} className="text-base text-muted-foreground">
          Its staff and manager can then watch this message, and nothing else of yours. You can stop
          sharing it at any time.
        </p>
      </div>
    </div>
  );
}

/**
 * The Record page's part: whether this resident is offered the care team, the choice, and the
 * share itself once the message is saved.
 */
export function useCareTeamChoice() {
  const queryClient = useQueryClient();
  const { data } = useMyCareTeam();
  const [isChosen, setIsChosen] = useState(false);
  const home = data?.home ?? null;
  const whyNot = data?.whyNot ?? null;
  const isOffered = home !== null && whyNot === null;
  return {
    home,
    whyNot,
    isChosen: isOffered && isChosen,
    setIsChosen,
    /** After the save: shares the message if chosen; a sentence to add to 'Video saved'. */
    async shareSaved(videoId: string, isIndexed: boolean): Promise<string | null> {
      if (!isOffered || !isChosen || !home) return null;
      const later = 'You can share it from Recipients, View Videos, once you are online.';
      if (!isIndexed) return `It is not shared with the care team yet. ${later}`;
      try {
        await shareWithCareTeam(videoId);
        void queryClient.invalidateQueries({ queryKey: CARE_TEAM_MINE_KEY });
        return `The care team at ${home.name} can watch it once it is in the cloud.`;
      } catch (reason) {
        return `It could not be shared with the care team: ${describeError(reason, later)}`;
      }
    },
  };
}

export type TCareTeamChoice = ReturnType<typeof useCareTeamChoice>;

/** Why this resident is not offered the care team here, where the choice would be. */
export function CareTeamNotOffered({
  homeName,
  whyNot,
}: {
  homeName: string;
  whyNot: TCareTeamWhyNot;
}) {
  return (
    <Alert
      variant="info"
      kind="note"
      title={`Sharing with the care team at ${homeName}`}
      icon={<Users />}
    >
      <p>{careTeamWhyNot(whyNot)}</p>
    </Alert>
  );
}

/** On the Record page, for a resident only: the choice, or why it is not offered here. */
export function CareTeamChoice({ choice }: { choice: TCareTeamChoice }) {
  const { home, whyNot } = choice;
  if (!home) return null;
  if (whyNot) return <CareTeamNotOffered homeName={home.name} whyNot={whyNot} />;
  return (
    <CareTeamCheckbox
      homeName={home.name}
      checked={choice.isChosen}
      onCheckedChange={choice.setIsChosen}
    />
  );
}
