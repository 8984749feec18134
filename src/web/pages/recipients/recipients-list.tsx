import type { Dispatch, SetStateAction } from 'react';
import { Trash2 } from 'lucide-react';
import type { TRecipientList } from '@shared/schemas/recipients';
import { Button } from '@web/components/ui/button';
import { Checkbox } from '@web/components/ui/checkbox';
import { HandoverButton } from '@web/features/backup/components/handover-button';
import { HouseBanner } from '@web/features/recipients/components/house-banner';
import { RecipientCard } from '@web/features/recipients/components/recipient-card';
import type { TRecipientDialogs } from './recipient-dialogs';
import type { TRecipientCards } from './use-recipient-cards';

function planLine(maxRecipients: number | null, used: number): string {
  if (maxRecipients === null) return 'Your plan has no limit on recipients.';
  // After a move to a smaller plan, nobody is removed: they all stay, and none can be added.
  if (used > maxRecipients) {
    return `Your plan includes your next of kin and ${maxRecipients} more recipient${maxRecipients === 1 ? '' : 's'}. You have ${used}: every one of them stays, with their messages. To add someone new, choose a bigger plan.`;
  }
  return `Your plan includes your next of kin and ${maxRecipients} more recipient${maxRecipients === 1 ? '' : 's'} (${Math.min(used, maxRecipients)} of ${maxRecipients} used).`;
}

interface RecipientsListProps {
  data: TRecipientList;
  /** Recipients counted against the plan (the next of kin is free). */
  used: number;
  localCounts: Map<number, number>;
  /** Listed videos neither this device nor the cloud keeps, by recipient. */
  missingCounts: Map<number, number>;
  selected: Set<number>;
  setSelected: Dispatch<SetStateAction<Set<number>>>;
  dialogs: TRecipientDialogs;
  cards: TRecipientCards;
}

/** The plan's line, 'Select all' with 'Delete selected', and a card for each recipient. */
export function RecipientsList({
  data,
  used,
  localCounts,
  missingCounts,
  selected,
  setSelected,
  dialogs,
  cards,
}: RecipientsListProps) {
  const { recipients } = data;
  const isAllSelected = recipients.length > 0 && selected.size === recipients.length;
  const { setShare, setViewing, setToDelete } = dialogs;
  return (
    <>
      <p className="text-base text-muted-foreground">{planLine(data.maxRecipients, used)}</p>
      {recipients.length > 0 && (
        <div className="flex flex-wrap items-center gap-4 rounded-xl bg-muted p-3">
          <label className="flex min-h-11 cursor-pointer items-center gap-3 px-2 font-semibold">
            <Checkbox
              checked={isAllSelected}
              onCheckedChange={(value) =>
                setSelected(value === true ? new Set(recipients.map((r) => r.id)) : new Set())
              }
            />
            Select all
          </label>
          <Button
            variant="destructive"
            disabled={selected.size === 0}
            onClick={() => setToDelete(recipients.filter((r) => selected.has(r.id)))}
          >
            <Trash2 aria-hidden="true" />
            Delete selected{selected.size > 0 ? ` (${selected.size})` : ''}
          </Button>
        </div>
      )}
      <ul className="grid gap-5 md:grid-cols-2" aria-label="Recipients">
        {recipients.map((recipient) => (
          <RecipientCard
            key={recipient.id}
            recipient={recipient}
            localVideoCount={localCounts.get(recipient.id) ?? 0}
            missingCount={missingCounts.get(recipient.id) ?? 0}
            isSelected={selected.has(recipient.id)}
            onSelectedChange={(isOn) =>
              setSelected((current) => {
                const next = new Set(current);
                if (isOn) next.add(recipient.id);
                else next.delete(recipient.id);
                return next;
              })
            }
            onShare={() => setShare({ target: recipient, code: null })}
            onViewVideos={() => setViewing(recipient)}
            onDelete={() => setToDelete([recipient])}
            cardState={cards.cardStateOf(recipient)}
            extraActions={
              <HandoverButton
                recipient={recipient}
                localVideoCount={localCounts.get(recipient.id) ?? 0}
              />
            }
          />
        ))}
      </ul>
      {data.showsHouseBanner && <HouseBanner />}
    </>
  );
}
