import { useState } from 'react';
import { Trash2 } from 'lucide-react';
import type { TRecipient } from '@shared/schemas/recipients';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

interface DeleteRecipientsDialogProps {
  recipients: TRecipient[];
  /** Videos of each recipient on this device (the server's count may differ). */
  localCounts: Map<number, number>;
  wouldRemoveLastNextOfKin: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => Promise<void>;
}

/** Nothing disappears without the person seeing what goes. */
export function DeleteRecipientsDialog({
  recipients,
  localCounts,
  wouldRemoveLastNextOfKin,
  onOpenChange,
  onConfirm,
}: DeleteRecipientsDialogProps) {
  const [isDeleting, setIsDeleting] = useState(false);
  const open = recipients.length > 0;
  const title =
    recipients.length === 1
      ? `Remove ${recipients[0]!.firstName} ${recipients[0]!.lastName}?`
      : `Remove ${recipients.length} recipients?`;

  async function confirm() {
    setIsDeleting(true);
    try {
      await onConfirm();
    } finally {
      setIsDeleting(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !isDeleting && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            Their access code stops working, and the video messages you recorded for them are
            deleted from this device. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <ul className="flex flex-col gap-2" aria-label="What will be removed">
          {recipients.map((recipient) => {
            const count = Math.max(recipient.videoCount, localCounts.get(recipient.id) ?? 0);
            return (
              <li key={recipient.id} className="rounded-lg bg-muted p-3 text-base">
                <span className="font-semibold">
                  {recipient.firstName} {recipient.lastName}
                </span>
                {' · '}
                {count === 0 ? 'no videos' : `${plural(count, 'video')} will be deleted with them`}
              </li>
            );
          })}
        </ul>
        {wouldRemoveLastNextOfKin && (
          <Alert variant="warm" title="Add another next of kin first">
            <p>
              Your next of kin holds your emergency code, so you always need one. Add another next
              of kin before removing this one.
            </p>
          </Alert>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={isDeleting}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            onClick={confirm}
            disabled={isDeleting || wouldRemoveLastNextOfKin}
          >
            <Trash2 aria-hidden="true" />
            {isDeleting ? 'Removing...' : 'Remove'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
