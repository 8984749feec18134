import { Link } from 'react-router';
import { Film, IdCard, Mail, Share2, Trash2, Video } from 'lucide-react';
import { RECIPIENT_CATEGORY_LABELS } from '@shared/domain/recipient-labels';
import type { TRecipient } from '@shared/schemas/recipients';
import { Button } from '@web/components/ui/button';
import { Checkbox } from '@web/components/ui/checkbox';
import { CARD_TEXT } from '@web/lib/encryption/owner-cards';
import { cn } from '@web/lib/utils';

/** With enhanced encryption on: whether their card still needs making, and how its messages go. */
export interface TCardState {
  needsNewCard: boolean;
  /** Why they need one, when it is not that their code came before enhanced encryption. */
  why?: string;
  /** A calm line while their messages are got ready for a new card, or when that is done. */
  note: string | null;
}

interface RecipientCardProps {
  recipient: TRecipient;
  localVideoCount: number;
  /** Videos the account lists for them that neither this device nor the cloud keeps. */
  missingCount: number;
  isSelected: boolean;
  onSelectedChange: (selected: boolean) => void;
  onShare: () => void;
  onViewVideos: () => void;
  onDelete: () => void;
  /** Extra actions for this recipient (e.g. the handover export). */
  extraActions?: React.ReactNode;
  /** Set while enhanced encryption is on: 'Share' then makes a new card. */
  cardState?: TCardState | null;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export function RecipientCard({
  recipient,
  localVideoCount,
  missingCount,
  isSelected,
  onSelectedChange,
  onShare,
  onViewVideos,
  onDelete,
  extraActions,
  cardState = null,
}: RecipientCardProps) {
  const name = `${recipient.firstName} ${recipient.lastName}`;
  const headingId = `recipient-${recipient.id}-name`;
  // The account's list counts those in the cloud and not here too (a new device filling up).
  const recordedCount = Math.max(recipient.videoCount, localVideoCount);
  return (
    <li
      aria-labelledby={headingId}
      className={cn(
        'flex flex-col gap-4 rounded-xl border-2 bg-card p-5 shadow-sm',
        isSelected ? 'border-primary' : 'border-border',
      )}
    >
      <div className="flex items-start gap-3">
        <Checkbox
          checked={isSelected}
          onCheckedChange={(value) => onSelectedChange(value === true)}
          aria-label={`Select ${name}`}
          className="-mt-0.5"
        />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h2 id={headingId} className="text-xl font-bold break-words">
            {name}
          </h2>
          <p className="flex flex-wrap items-center gap-x-2 text-base text-muted-foreground">
            <span className="rounded-full bg-primary-soft px-2.5 py-0.5 text-base font-semibold text-primary">
              {RECIPIENT_CATEGORY_LABELS[recipient.category]}
            </span>
            <Mail className="size-4" aria-hidden="true" />
            <span className="break-all">{recipient.email}</span>
          </p>
        </div>
        {!cardState?.needsNewCard && (
          <Button
            variant="ghost"
            size="icon"
            onClick={onShare}
            aria-label={
              cardState ? `Make a new card for ${name}` : `Share access code with ${name}`
            }
            title={cardState ? CARD_TEXT.makeNewCard : 'Share access code'}
          >
            {cardState ? <IdCard aria-hidden="true" /> : <Share2 aria-hidden="true" />}
          </Button>
        )}
      </div>
      {cardState?.needsNewCard && (
        <div className="flex flex-col gap-3 rounded-lg border-2 border-warm-foreground/25 bg-warm p-4">
          <p className="text-lg font-bold">{CARD_TEXT.needsNewCard}</p>
          <p>{cardState.why ?? CARD_TEXT.needsNewCardWhy}</p>
          <div>
            <Button onClick={onShare} aria-label={`${CARD_TEXT.makeNewCard} for ${name}`}>
              <IdCard aria-hidden="true" />
              {CARD_TEXT.makeNewCard}
            </Button>
          </div>
        </div>
      )}
      {cardState?.note && (
        <p role="status" className="text-base">
          {cardState.note}
        </p>
      )}
      <p className="flex items-center gap-2 text-base">
        <Film className="size-5 text-primary" aria-hidden="true" />
        <span data-testid="video-count">
          {plural(recordedCount, 'video')} recorded
          {missingCount > 0 && (
            <span className="font-semibold text-destructive">
              {' '}
              ({missingCount} missing from this device)
            </span>
          )}
        </span>
      </p>
      <div className="mt-auto flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        <Button variant="outline" onClick={onViewVideos} aria-label={`View Videos for ${name}`}>
          View Videos
        </Button>
        <Button asChild>
          <Link
            to={`/record?recipient=${recipient.id}`}
            aria-label={`Record New Message for ${name}`}
          >
            <Video aria-hidden="true" />
            Record New Message
          </Link>
        </Button>
        {extraActions}
        <Button variant="ghost-destructive" onClick={onDelete} aria-label={`Remove ${name}`}>
          <Trash2 aria-hidden="true" />
          Remove
        </Button>
      </div>
    </li>
  );
}
