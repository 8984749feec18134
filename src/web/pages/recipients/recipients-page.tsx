import { useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { UserPlus } from 'lucide-react';
import type { TRecipient, TRecipientCreated } from '@shared/schemas/recipients';
import { MESSAGES } from '@shared/domain/errors';
import { BackHomeLink } from '@web/components/back-home-link';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { toast } from '@web/components/ui/use-toast';
import { BillingNotice } from '@web/features/billing/components/billing-notice';
import { RecipientsLoadState } from '@web/features/recipients/components/recipients-load-state';
import { describeError } from '@web/lib/api-client';
import { isPrimaryUser } from '@web/lib/auth-api';
import { useAuth } from '@web/lib/auth-provider';
import { deleteRecipient, RECIPIENTS_QUERY_KEY, useRecipients } from '@web/lib/recipients-api';
import { usePageTitle } from '@web/lib/use-page-title';
import { deleteLocalVideos, listVideos } from '@web/lib/videos/local-store';
import { missingHere, useVideoIndex, VIDEO_INDEX_QUERY_KEY } from '@web/lib/videos/videos-api';
import { RecipientDialogs, useRecipientDialogs } from './recipient-dialogs';
import { RecipientsList } from './recipients-list';
import { useRecipientCards } from './use-recipient-cards';

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

/**
 * For each recipient, kept up to date: how many videos this device holds, and how many the
 * account's list has that neither this device nor the cloud keeps (lost with a browser's data).
 */
function useVideoCounts(userId: number) {
  const localVideos = useLiveQuery(() => listVideos(userId), [userId]);
  const { data: index } = useVideoIndex();
  return useMemo(() => {
    const localCounts = new Map<number, number>();
    for (const video of localVideos ?? []) {
      localCounts.set(video.recipientId, (localCounts.get(video.recipientId) ?? 0) + 1);
    }
    const missingCounts = new Map<number, number>();
    if (localVideos && index) {
      for (const row of missingHere(index, new Set(localVideos.map((video) => video.id)))) {
        missingCounts.set(row.recipientId, (missingCounts.get(row.recipientId) ?? 0) + 1);
      }
    }
    return { localCounts, missingCounts };
  }, [localVideos, index]);
}

/** Deletes each recipient and their videos here; what failed, one line per recipient. */
async function deleteEach(userId: number, recipients: TRecipient[]): Promise<string[]> {
  const failures: string[] = [];
  // One call per selected recipient, so each failure can be named.
  for (const recipient of recipients) {
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
  return failures;
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
  const { localCounts, missingCounts } = useVideoCounts(userId);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const dialogs = useRecipientDialogs();
  const { toDelete, setToDelete, setShare, setUpgradeMessage, setIsAdding } = dialogs;

  const recipients = useMemo(() => data?.recipients ?? [], [data]);
  const cards = useRecipientCards(userId, data?.recipients);
  const nextOfKinCount = recipients.filter((r) => r.category === 'next_of_kin').length;
  const used = recipients.length - (nextOfKinCount > 0 ? 1 : 0);

  async function refresh() {
    await queryClient.invalidateQueries({ queryKey: RECIPIENTS_QUERY_KEY });
    await queryClient.invalidateQueries({ queryKey: VIDEO_INDEX_QUERY_KEY });
  }

  function onAdded(created: TRecipientCreated, cardCode: string | null) {
    void refresh();
    const code = cardCode ?? created.emergencyAccessCode;
    if (code) {
      // The share dialog says it all; a toast on top of it would only cover it.
      setShare({ target: created, code, isCard: cardCode !== null });
    } else {
      toast({
        variant: 'success',
        title: 'Recipient added',
        description: `${created.firstName} ${created.lastName} has been added.`,
      });
    }
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
    const failures = await deleteEach(userId, toDelete);
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
          <RecipientsList
            data={data}
            used={used}
            localCounts={localCounts}
            missingCounts={missingCounts}
            selected={selected}
            setSelected={setSelected}
            dialogs={dialogs}
            cards={cards}
          />
        </>
      )}

      <RecipientDialogs
        dialogs={dialogs}
        userId={userId}
        ownerName={ownerName}
        localCounts={localCounts}
        nextOfKinCount={nextOfKinCount}
        onAdded={onAdded}
        onConfirmDelete={confirmDelete}
        cards={cards}
      />
    </div>
  );
}
