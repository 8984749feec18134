import { Link } from 'react-router';
import { Film, Mail, Share2, Trash2, Video } from 'lucide-react';
import { RECIPIENT_CATEGORY_LABELS } from '@shared/domain/recipient-labels';
import type { TRecipient } from '@shared/schemas/recipients';
import { Button } from '@web/components/ui/button';
import { Checkbox } from '@web/components/ui/checkbox';
import { cn } from '@web/lib/utils';

interface RecipientCardProps {
  recipient: TRecipient;
  localVideoCount: number;
  isSelected: boolean;
  onSelectedChange: (selected: boolean) => void;
  onShare: () => void;
  onViewVideos: () => void;
  onDelete: () => void;
  /** Extra actions for this recipient (e.g. the handover export). */
  extraActions?: React.ReactNode;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export function RecipientCard({
  recipient,
  localVideoCount,
  isSelected,
  onSelectedChange,
  onShare,
  onViewVideos,
  onDelete,
  extraActions,
}: RecipientCardProps) {
  const name = `${recipient.firstName} ${recipient.lastName}`;
  const headingId = `recipient-${recipient.id}-name`;
  const missing = recipient.videoCount - localVideoCount;
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
        <Button
          variant="ghost"
          size="icon"
          onClick={onShare}
          aria-label={`Share access code with ${name}`}
          title="Share access code"
        >
          <Share2 aria-hidden="true" />
        </Button>
      </div>
      <p className="flex items-center gap-2 text-base">
        <Film className="size-5 text-primary" aria-hidden="true" />
        <span data-testid="video-count">
          {plural(localVideoCount, 'video')} recorded
          {missing > 0 && (
            <span className="font-semibold text-destructive">
              {' '}
              ({missing} missing from this device)
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
