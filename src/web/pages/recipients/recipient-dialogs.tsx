import { Suspense, useState } from 'react';
import type { TRecipient, TRecipientCreated } from '@shared/schemas/recipients';
import type { TShareTarget } from '@web/features/recipients/share-text';
import { lazyNamed } from '@web/lib/lazy-named';
import { reshareCode } from '@web/lib/recipients-api';
import type { TLocalVideo } from '@web/lib/videos/local-store';
import type { TRecipientCards } from './use-recipient-cards';

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

/** Which of the Recipients page's dialogs is open, and for whom. */
export function useRecipientDialogs() {
  const [isAdding, setIsAdding] = useState(false);
  const [upgradeMessage, setUpgradeMessage] = useState<string | null>(null);
  const [share, setShare] = useState<{
    target: TShareTarget;
    code: string | null;
    /** A card made on this device (enhanced encryption on). */
    isCard?: boolean;
  } | null>(null);
  const [toDelete, setToDelete] = useState<TRecipient[]>([]);
  const [viewing, setViewing] = useState<TRecipient | null>(null);
  const [playing, setPlaying] = useState<TLocalVideo | null>(null);
  return {
    ...{ isAdding, setIsAdding, upgradeMessage, setUpgradeMessage, share, setShare },
    ...{ toDelete, setToDelete, viewing, setViewing, playing, setPlaying },
  };
}

export type TRecipientDialogs = ReturnType<typeof useRecipientDialogs>;

async function onReshare(target: TShareTarget): Promise<string> {
  const fresh = await reshareCode(target.id);
  return fresh.emergencyAccessCode;
}

interface RecipientDialogsProps {
  dialogs: TRecipientDialogs;
  userId: number;
  ownerName: string;
  localCounts: Map<number, number>;
  nextOfKinCount: number;
  onAdded: (created: TRecipientCreated, cardCode: string | null) => void;
  onConfirmDelete: () => Promise<void>;
  cards: TRecipientCards;
}

/** The open dialog: add, upgrade, share a code, delete, a recipient's videos, a video playing. */
export function RecipientDialogs({
  dialogs,
  userId,
  ownerName,
  localCounts,
  nextOfKinCount,
  onAdded,
  onConfirmDelete,
  cards,
}: RecipientDialogsProps) {
  const { isAdding, setIsAdding, upgradeMessage, setUpgradeMessage, share, setShare } = dialogs;
  const { toDelete, setToDelete, viewing, setViewing, playing, setPlaying } = dialogs;
  const deletingNextOfKin = toDelete.filter((r) => r.category === 'next_of_kin').length;
  return (
    <>
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
            onReshare={cards.isOn ? cards.makeNewCard : onReshare}
            isCard={share.isCard ?? cards.isOn}
            progressNote={cards.noteFor(share.target)}
          />
        )}
        {toDelete.length > 0 && (
          <DeleteRecipientsDialog
            recipients={toDelete}
            localCounts={localCounts}
            wouldRemoveLastNextOfKin={deletingNextOfKin > 0 && deletingNextOfKin >= nextOfKinCount}
            onOpenChange={(open) => !open && setToDelete([])}
            onConfirm={onConfirmDelete}
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
    </>
  );
}
