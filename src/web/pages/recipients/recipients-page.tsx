import { Suspense, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { Trash2, UserPlus } from 'lucide-react';
import type { TRecipient, TRecipientCreated } from '@shared/schemas/recipients';
import { isPrimaryUser } from '@web/lib/auth-api';
import { BackHomeLink } from '@web/components/back-home-link';
import { HandoverButton } from '@web/features/backup/components/handover-button';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Checkbox } from '@web/components/ui/checkbox';
import { toast } from '@web/components/ui/use-toast';
import { useAuth } from '@web/lib/auth-provider';
import { HouseBanner } from '@web/features/recipients/components/house-banner';
import { RecipientCard } from '@web/features/recipients/components/recipient-card';
import { BillingNotice } from '@web/features/billing/components/billing-notice';
import {
  deleteRecipient,
  RECIPIENTS_QUERY_KEY,
  reshareCode,
  useRecipients,
} from '@web/lib/recipients-api';
import type { TShareTarget } from '@web/features/recipients/share-text';
import { deleteLocalVideos, listVideos, type TLocalVideo } from '@web/lib/videos/local-store';
import { VIDEO_INDEX_QUERY_KEY } from '@web/lib/videos/videos-api';
import { MESSAGES } from '@shared/domain/errors';
import { describeError } from '@web/lib/api-client';
import { RecipientsLoadState } from '@web/features/recipients/components/recipients-load-state';
import { usePageTitle } from '@web/lib/use-page-title';
import { lazyNamed } from '@web/lib/lazy-named';

// Each dialog (and the form, player and checks it brings) loads when it is opened, not with the
// list: the list paints sooner on a slow tablet.
const AddRecipientDialog = lazyNamed(
  () => import('@web/features/recipients/components/add-recipient-dialog'),
  'AddRecipientDialog',
);
const UpgradeDialog = lazyNamed(
  () => import('@web/features/recipients/components/upgrade-dialog'),
  'UpgradeDialog',
);
const ShareCodeDialog = lazyNamed(
  () => import('@web/features/recipients/components/share-code-dialog'),
  'ShareCodeDialog',
);
const DeleteRecipientsDialog = lazyNamed(
  () => import('@web/features/recipients/components/delete-recipients-dialog'),
  'DeleteRecipientsDialog',
);
const ViewVideosDialog = lazyNamed(() => import('./view-videos'), 'ViewVideosWithRelease');
const VideoPlayerDialog = lazyNamed(
  () => import('@web/features/videos/components/video-player-dialog'),
  'VideoPlayerDialog',
);

function planLine(maxRecipients: number | null, used: number): string {
  if (maxRecipients === null) return 'Your plan has no limit on recipients.';
  // After a move to a smaller plan, nobody is removed: they all stay, and none can be added.
  if (used > maxRecipients) {
    return `Your plan includes your next of kin and ${maxRecipients} more recipient${maxRecipients === 1 ? '' : 's'}. You have ${used}: every one of them stays, with their messages. To add someone new, choose a bigger plan.`;
  }
  return `Your plan includes your next of kin and ${maxRecipients} more recipient${maxRecipients === 1 ? '' : 's'} (${Math.min(used, maxRecipients)} of ${maxRecipients} used).`;
}

export default function RecipientsPage() {
  usePageTitle('Recipients');
  const { user } = useAuth();
  const isPrimary = user ? isPrimaryUser(user) : false;

  if (!user) return null;
  if (!isPrimary) {
    return (
      <div className="mx-auto w-full max-w-3xl">
        <Alert variant="warm" title="Recipients">
          <p>{MESSAGES.primaryOnlyRecipients}</p>
        </Alert>
      </div>
    );
  }
  return (
    <RecipientsManager
      userId={user.id}
      ownerName={`${user.firstName} ${user.lastName}`}
      notice={<BillingNotice user={user} />}
    />
  );
}

function RecipientsManager({
  userId,
  ownerName,
  notice,
}: {
  userId: number;
  ownerName: string;
  notice: ReactNode;
}) {
  const queryClient = useQueryClient();
  const { data, isLoading, error } = useRecipients();
  const localVideos = useLiveQuery(() => listVideos(userId), [userId]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [isAdding, setIsAdding] = useState(false);
  const [upgradeMessage, setUpgradeMessage] = useState<string | null>(null);
  const [share, setShare] = useState<{ target: TShareTarget; code: string | null } | null>(null);
  const [toDelete, setToDelete] = useState<TRecipient[]>([]);
  const [viewing, setViewing] = useState<TRecipient | null>(null);
  const [playing, setPlaying] = useState<TLocalVideo | null>(null);

  const recipients = useMemo(() => data?.recipients ?? [], [data]);
  const localCounts = useMemo(() => {
    const counts = new Map<number, number>();
    for (const video of localVideos ?? []) {
      counts.set(video.recipientId, (counts.get(video.recipientId) ?? 0) + 1);
    }
    return counts;
  }, [localVideos]);

  const nextOfKinCount = recipients.filter((r) => r.category === 'next_of_kin').length;
  const deletingNextOfKin = toDelete.filter((r) => r.category === 'next_of_kin').length;
  const used = recipients.length - (nextOfKinCount > 0 ? 1 : 0);
  const isAllSelected = recipients.length > 0 && selected.size === recipients.length;

  async function refresh() {
    await queryClient.invalidateQueries({ queryKey: RECIPIENTS_QUERY_KEY });
    await queryClient.invalidateQueries({ queryKey: VIDEO_INDEX_QUERY_KEY });
  }

  function onAdded(created: TRecipientCreated) {
    void refresh();
    if (created.emergencyAccessCode) {
      // The share dialog says it all; a toast on top of it would only cover it.
      setShare({ target: created, code: created.emergencyAccessCode });
    } else {
      toast({
        variant: 'success',
        title: 'Recipient added',
        description: `${created.firstName} ${created.lastName} has been added.`,
      });
    }
  }

  async function onReshare(target: TShareTarget): Promise<string> {
    const fresh = await reshareCode(target.id);
    return fresh.emergencyAccessCode;
  }

  function startAdding() {
    if (data?.maxRecipients != null && used >= data.maxRecipients) {
      setUpgradeMessage(
        `Your plan includes your next of kin and ${data.maxRecipients} more recipient${data.maxRecipients === 1 ? '' : 's'}. Upgrade to add more.`,
      );
      return;
    }
    setIsAdding(true);
  }

  async function confirmDelete() {
    const failures: string[] = [];
    // One call per selected recipient, so each failure can be named.
    for (const recipient of toDelete) {
      try {
        const { deletedVideoIds } = await deleteRecipient(recipient.id);
        const onDevice = await listVideos(userId, recipient.id);
        await deleteLocalVideos([...new Set([...deletedVideoIds, ...onDevice.map((v) => v.id)])]);
      } catch (reason) {
        failures.push(
          `${recipient.firstName} ${recipient.lastName}: ${describeError(reason, 'Failed to delete recipients')}`,
        );
      }
    }
    await refresh();
    setSelected(new Set());
    setToDelete([]);
    if (failures.length > 0) {
      toast({
        variant: 'destructive',
        title: 'Failed to delete recipients',
        description: failures.join(' '),
      });
    } else {
      toast({
        variant: 'success',
        title:
          toDelete.length === 1 ? 'Recipient removed' : `${toDelete.length} recipients removed`,
      });
    }
  }

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <BackHomeLink />
      {notice}
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-2">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Your Recipients</h1>
          <p className="text-lg text-muted-foreground">The people you record video messages for.</p>
        </div>
        <Button size="lg" onClick={startAdding} disabled={!data}>
          <UserPlus aria-hidden="true" />
          Add Recipient
        </Button>
      </div>

      <RecipientsLoadState isLoading={isLoading} error={error} onRetry={() => void refresh()} />

      {data && (
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
      )}

      {isAdding && (
        <Suspense fallback={null}>
          <AddRecipientDialog
            open
            onOpenChange={setIsAdding}
            onAdded={onAdded}
            onUpgradeRequired={setUpgradeMessage}
          />
        </Suspense>
      )}
      <Suspense fallback={null}>
        {upgradeMessage !== null && (
          <UpgradeDialog
            message={upgradeMessage}
            onOpenChange={(open) => !open && setUpgradeMessage(null)}
          />
        )}
        {share && (
          <ShareCodeDialog
            key={`${share.target.id}-${share.code ?? 'new'}`}
            target={share.target}
            code={share.code ?? null}
            ownerName={ownerName}
            onOpenChange={(open) => !open && setShare(null)}
            onReshare={onReshare}
          />
        )}
        {toDelete.length > 0 && (
          <DeleteRecipientsDialog
            recipients={toDelete}
            localCounts={localCounts}
            wouldRemoveLastNextOfKin={deletingNextOfKin > 0 && deletingNextOfKin >= nextOfKinCount}
            onOpenChange={(open) => !open && setToDelete([])}
            onConfirm={confirmDelete}
          />
        )}
        {viewing && (
          <ViewVideosDialog
            key={viewing.id}
            recipient={viewing}
            creatorId={userId}
            onOpenChange={(open) => !open && setViewing(null)}
            onPlay={setPlaying}
          />
        )}
        {playing && (
          <VideoPlayerDialog
            key={playing.id}
            video={playing}
            recipientName={viewing ? `${viewing.firstName} ${viewing.lastName}` : ''}
            onOpenChange={(open) => !open && setPlaying(null)}
          />
        )}
      </Suspense>
    </div>
  );
}
