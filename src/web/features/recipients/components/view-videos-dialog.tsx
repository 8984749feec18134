import { useState, type ComponentType } from 'react';
import type { TRelease } from '@shared/domain/legacy';
import { useLiveQuery } from 'dexie-react-hooks';
import { CloudOff, Play, Trash2 } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import type { TRecipient } from '@shared/schemas/recipients';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Checkbox } from '@web/components/ui/checkbox';
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
import { lazyDateFormat } from '@web/lib/date-format';

const dateFormat = lazyDateFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

interface ViewVideosDialogProps {
  recipient: TRecipient | null;
  creatorId: number;
  onOpenChange: (open: boolean) => void;
  onPlay: (video: TLocalVideo) => void;
  /** Each message's release rule and its 'Change' form, from the legacy feature. */
  releaseControl: ComponentType<{ videoId: string; title: string; release: TRelease | undefined }>;
}

/** A recipient's videos, each selectable and playable, with 'Delete selected'. */
export function ViewVideosDialog({
  recipient,
  creatorId,
  onOpenChange,
  onPlay,
  releaseControl: MessageRelease,
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
    const ids = [...selected];
    try {
      // The index row first: if that fails, nothing has been lost from this device.
      await deleteIndexedVideos(ids);
      await deleteLocalVideos(ids);
      setSelected(new Set());
      setIsConfirming(false);
      toast({
        variant: 'success',
        title: ids.length === 1 ? 'Video deleted' : `${ids.length} videos deleted`,
      });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Failed to delete videos',
        description: describeError(error, 'Please try again.'),
      });
    } finally {
      setIsDeleting(false);
      await queryClient.invalidateQueries({ queryKey: VIDEO_INDEX_QUERY_KEY });
      await queryClient.invalidateQueries({ queryKey: RECIPIENTS_QUERY_KEY });
    }
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
              <li
                key={video.id}
                className="flex flex-col gap-3 rounded-lg border-2 border-border p-3"
              >
                <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
                  <div className="flex min-w-0 flex-1 items-start gap-3">
                    <Checkbox
                      checked={selected.has(video.id)}
                      onCheckedChange={(value) => toggle(video.id, value === true)}
                      aria-label={`Select ${video.title}`}
                      className="-mt-1.5"
                    />
                    <div className="flex min-w-0 flex-1 flex-col">
                      <span className="font-semibold break-words">{video.title}</span>
                      <span className="text-base text-muted-foreground">
                        {dateFormat.format(new Date(video.createdAt))} ·{' '}
                        {formatDuration(video.durationMs)} · {formatSize(video.byteSize)}
                      </span>
                    </div>
                  </div>
                  <Button
                    variant="outline"
                    onClick={() => onPlay(video)}
                    aria-label={`Play ${video.title}`}
                    className="w-full sm:w-auto"
                  >
                    <Play aria-hidden="true" />
                    Play
                  </Button>
                </div>
                <MessageRelease videoId={video.id} title={video.title} release={releaseOf(video)} />
              </li>
            ))}
            {missing.map((row) => (
              <li
                key={row.id}
                className="flex items-center gap-3 rounded-lg border-2 border-dashed border-destructive/50 p-3"
              >
                <CloudOff className="size-6 shrink-0 text-destructive" aria-hidden="true" />
                <div className="flex flex-col">
                  <span className="font-semibold">Not on this device</span>
                  <span className="text-base text-muted-foreground">
                    Recorded {dateFormat.format(new Date(row.createdAt))} ·{' '}
                    {formatDuration(row.metadata.durationMs)}. Restore it from a backup file on the
                    home page.
                  </span>
                </div>
              </li>
            ))}
          </ul>
        )}
        {isConfirming && (
          <Alert variant="destructive" title={`Delete ${selected.size} selected?`}>
            <p>They are removed from this device for good. This cannot be undone.</p>
          </Alert>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => close(false)} disabled={isDeleting}>
            Close
          </Button>
          {isConfirming ? (
            <Button variant="destructive" onClick={deleteSelected} disabled={isDeleting}>
              <Trash2 aria-hidden="true" />
              {isDeleting ? 'Deleting...' : 'Yes, delete'}
            </Button>
          ) : (
            <Button
              variant="destructive"
              onClick={() => setIsConfirming(true)}
              disabled={selected.size === 0}
            >
              <Trash2 aria-hidden="true" />
              Delete selected
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
