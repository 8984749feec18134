import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { Trash2 } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
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
import { toast } from '@web/components/ui/use-toast';
import { deleteLocalVideos, listVideos, type TLocalVideo } from '@web/lib/videos/local-store';
import {
  deleteIndexedVideos,
  useVideoIndex,
  VIDEO_INDEX_QUERY_KEY,
} from '@web/lib/videos/videos-api';
import { describeError } from '@web/lib/api-client';
import { RECIPIENTS_QUERY_KEY } from '@web/lib/recipients-api';
import { LocalVideoItem, MissingVideoItem, type TReleaseControl } from './recipient-video-items';

interface ViewVideosDialogProps {
  recipient: TRecipient | null;
  creatorId: number;
  onOpenChange: (open: boolean) => void;
  onPlay: (video: TLocalVideo) => void;
  /** Each message's release rule and its 'Change' form, from the legacy feature. */
  releaseControl: TReleaseControl;
}

/** Deletes the videos from the account's index, then from this device; says how it went. */
async function deleteVideos(ids: string[]): Promise<boolean> {
  try {
    // The index row first: if that fails, nothing has been lost from this device.
    await deleteIndexedVideos(ids);
    await deleteLocalVideos(ids);
    toast({
      variant: 'success',
      title: ids.length === 1 ? 'Video deleted' : `${ids.length} videos deleted`,
    });
    return true;
  } catch (error) {
    toast({
      variant: 'destructive',
      title: 'Failed to delete videos',
      description: describeError(error, 'Please try again.'),
    });
    return false;
  }
}

/** A recipient's videos, each selectable and playable, with 'Delete selected'. */
export function ViewVideosDialog({
  recipient,
  creatorId,
  onOpenChange,
  onPlay,
  releaseControl,
}: ViewVideosDialogProps) {
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [isConfirming, setIsConfirming] = useState(false);
  const [isDeleting, setIsDeleting] = useState(false);
  const local = useLiveQuery(
    () => (recipient ? listVideos(creatorId, recipient.id) : Promise.resolve([])),
    [creatorId, recipient?.id],
  );
  const { data: index } = useVideoIndex({ enabled: recipient !== null });
  if (!recipient) return null;

  const localIds = new Set((local ?? []).map((video) => video.id));
  // The server's rule where it has one: it is what recipients are held to.
  const releaseOf = (video: TLocalVideo) =>
    (index ?? []).find((row) => row.id === video.id)?.release ?? video.release;
  const missing = (index ?? []).filter(
    (row) => row.recipientId === recipient.id && !localIds.has(row.id),
  );
  const name = recipient.firstName;

  function close(open: boolean) {
    if (open || isDeleting) return;
    onOpenChange(false);
    setSelected(new Set());
    setIsConfirming(false);
  }

  function toggle(id: string, isOn: boolean) {
    setSelected((current) => {
      const next = new Set(current);
      if (isOn) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  async function deleteSelected() {
    setIsDeleting(true);
    const isDeleted = await deleteVideos([...selected]);
    if (isDeleted) {
      setSelected(new Set());
      setIsConfirming(false);
    }
    setIsDeleting(false);
    await queryClient.invalidateQueries({ queryKey: VIDEO_INDEX_QUERY_KEY });
    await queryClient.invalidateQueries({ queryKey: RECIPIENTS_QUERY_KEY });
  }

  return (
    <Dialog open onOpenChange={close}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>
            Videos for {recipient.firstName} {recipient.lastName}
          </DialogTitle>
          <DialogDescription>
            These videos are kept on this device. Select any you want to delete.
          </DialogDescription>
        </DialogHeader>
        {local === undefined ? (
          <p role="status">Loading videos...</p>
        ) : local.length === 0 && missing.length === 0 ? (
          <p className="text-base">You have not recorded a message for {name} yet.</p>
        ) : (
          <ul className="flex flex-col gap-3" aria-label={`Videos for ${name}`}>
            {local.map((video) => (
              <LocalVideoItem
                key={video.id}
                video={video}
                isSelected={selected.has(video.id)}
                onSelectedChange={(isOn) => toggle(video.id, isOn)}
                onPlay={() => onPlay(video)}
                release={releaseOf(video)}
                releaseControl={releaseControl}
              />
            ))}
            {missing.map((row) => (
              <MissingVideoItem key={row.id} row={row} />
            ))}
          </ul>
        )}
        <DeleteSelectedFooter
          count={selected.size}
          isConfirming={isConfirming}
          isDeleting={isDeleting}
          onAsk={() => setIsConfirming(true)}
          onConfirm={deleteSelected}
          onClose={() => close(false)}
        />
      </DialogContent>
    </Dialog>
  );
}

interface DeleteSelectedFooterProps {
  count: number;
  isConfirming: boolean;
  isDeleting: boolean;
  onAsk: () => void;
  onConfirm: () => void;
  onClose: () => void;
}

/** 'Close' and 'Delete selected', which asks once more before deleting for good. */
function DeleteSelectedFooter({
  count,
  isConfirming,
  isDeleting,
  onAsk,
  onConfirm,
  onClose,
}: DeleteSelectedFooterProps) {
  return (
    <>
      {isConfirming && (
        <Alert variant="destructive" title={`Delete ${count} selected?`}>
          <p>They are removed from this device for good. This cannot be undone.</p>
        </Alert>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={onClose} disabled={isDeleting}>
          Close
        </Button>
        {isConfirming ? (
          <Button variant="destructive" onClick={onConfirm} disabled={isDeleting}>
            <Trash2 aria-hidden="true" />
            {isDeleting ? 'Deleting...' : 'Yes, delete'}
          </Button>
        ) : (
          <Button variant="destructive" onClick={onAsk} disabled={count === 0}>
            <Trash2 aria-hidden="true" />
            Delete selected
          </Button>
        )}
      </DialogFooter>
    </>
  );
}
