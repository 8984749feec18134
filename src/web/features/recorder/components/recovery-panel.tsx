import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { History, Trash2 } from 'lucide-react';
import type { TRecipient } from '@shared/schemas/recipients';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { discardDraft, listDrafts, type TDraftRecording } from '@web/lib/videos/local-store';
import { formatClock } from '@web/lib/video-format';
import { lazyDateFormat } from '@web/lib/date-format';

const dateFormat = lazyDateFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

interface RecoveryPanelProps {
  creatorId: number;
  recipients: TRecipient[];
  onRecover: (draft: TDraftRecording) => void;
}

/**
 * A recording is never lost: one interrupted by a reload, a crash or a closed tab is still in
 * IndexedDB; this offers it back before anything else happens on the page.
 */
export function RecoveryPanel({ creatorId, recipients, onRecover }: RecoveryPanelProps) {
  const drafts = useLiveQuery(() => listDrafts(creatorId), [creatorId]);
  const [confirmingId, setConfirmingId] = useState<string | null>(null);

  // A draft with no slices holds nothing to recover (the tab closed before the first second).
  useEffect(() => {
    for (const draft of drafts ?? []) if (draft.chunkCount === 0) void discardDraft(draft.id);
  }, [drafts]);

  const recoverable = (drafts ?? []).filter((draft) => draft.chunkCount > 0);
  if (recoverable.length === 0) return null;

  const nameOf = (recipientId: number) => {
    const recipient = recipients.find((r) => r.id === recipientId);
    return recipient ? `${recipient.firstName} ${recipient.lastName}` : 'someone';
  };

  return (
    <Alert
      variant="warm"
      kind="note"
      title={
        recoverable.length === 1
          ? 'A recording was interrupted'
          : `${recoverable.length} recordings were interrupted`
      }
      icon={<History aria-hidden="true" />}
    >
      <p>
        The page closed before {recoverable.length === 1 ? 'this recording' : 'these recordings'}{' '}
        could be saved. Nothing is lost: you can watch and save it now.
      </p>
      <ul className="flex flex-col gap-3">
        {recoverable.map((draft) => (
          <li
            key={draft.id}
            className="flex flex-col gap-3 rounded-lg border-2 border-border bg-card p-4"
          >
            <div className="flex flex-col">
              <span className="text-lg font-semibold break-words">
                “{draft.title}” for {nameOf(draft.recipientId)}
              </span>
              <span className="text-base text-muted-foreground">
                Started {dateFormat.format(new Date(draft.startedAt))} · about{' '}
                {formatClock(Date.parse(draft.updatedAt) - Date.parse(draft.startedAt))} recorded
              </span>
            </div>
            {confirmingId === draft.id ? (
              <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
                <span className="font-semibold">Throw this recording away for good?</span>
                <Button variant="destructive" onClick={() => void discardDraft(draft.id)}>
                  <Trash2 aria-hidden="true" />
                  Yes, discard it
                </Button>
                <Button variant="outline" onClick={() => setConfirmingId(null)}>
                  Keep it
                </Button>
              </div>
            ) : (
              <div className="flex flex-col gap-3 sm:flex-row">
                <Button onClick={() => onRecover(draft)}>
                  <History aria-hidden="true" />
                  Recover Recording
                </Button>
                <Button variant="ghost" onClick={() => setConfirmingId(draft.id)}>
                  Discard
                </Button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
