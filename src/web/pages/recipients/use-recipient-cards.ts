import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TRecipientKeyForOwner } from '@shared/schemas/encryption';
import type { TRecipient } from '@shared/schemas/recipients';
import type { TCardState } from '@web/features/recipients/components/recipient-card';
import type { TShareTarget } from '@web/features/recipients/share-text';
import { getAccountKey } from '@web/lib/encryption/device-keys';
import { ENCRYPTION_QUERY_KEY, fetchEncryptionState } from '@web/lib/encryption/encryption-state';
import {
  CARD_TEXT,
  cardProblemOf,
  replaceCard,
  wrapMessagesForCard,
  type TWrapProgress,
} from '@web/lib/encryption/owner-cards';
import { RECIPIENTS_QUERY_KEY } from '@web/lib/recipients-api';

const plural = (count: number) => `${count} message${count === 1 ? '' : 's'}`;

/** The calm line under a recipient while their messages are got ready for their card. */
function progressLine(name: string, progress: TWrapProgress | 'failed'): string | null {
  if (progress === 'failed') return CARD_TEXT.wrapFailed;
  const { done, total, skipped } = progress;
  if (total === 0) return null;
  if (done + skipped < total) {
    return `Getting ${name}’s messages ready for their card: ${done} of ${total}.`;
  }
  if (skipped > 0) return CARD_TEXT.wrapFailed;
  return `${plural(total)} ready for ${name}’s card.`;
}

/**
 * Recipients' cards on the Recipients page while enhanced encryption is on: which recipients
 * still need one, making a new one, and wrapping each recipient's sealed messages for their
 * card (on every visit too, so what a closed page left undone is finished later).
 */
export function useRecipientCards(userId: number, recipients: TRecipient[] | undefined) {
  const queryClient = useQueryClient();
  const { data: encryption } = useQuery({
    queryKey: ENCRYPTION_QUERY_KEY,
    queryFn: fetchEncryptionState,
    staleTime: 60_000,
  });
  const isOn = encryption?.state === 'on';
  const [progress, setProgress] = useState(new Map<number, TWrapProgress | 'failed'>());
  // The card each recipient's wrapping is for: a card made meanwhile replaces an older run's.
  const runningFor = useRef(new Map<number, string>());
  const hasResumed = useRef(false);

  const wrapFor = useCallback(
    async (recipientId: number, sealedKey: TRecipientKeyForOwner, accountKey: CryptoKey) => {
      if (runningFor.current.get(recipientId) === sealedKey.keyId) return;
      runningFor.current.set(recipientId, sealedKey.keyId);
      const isCurrent = () => runningFor.current.get(recipientId) === sealedKey.keyId;
      const show = (value: TWrapProgress | 'failed') => {
        if (isCurrent()) setProgress((current) => new Map(current).set(recipientId, value));
      };
      try {
        await wrapMessagesForCard({ recipientId, sealedKey, accountKey, onProgress: show });
      } catch {
        show('failed');
      } finally {
        if (isCurrent()) runningFor.current.delete(recipientId);
      }
    },
    [],
  );

  // Once a visit: finish what an earlier visit (or a message sent meanwhile) left to wrap.
  useEffect(() => {
    if (!isOn || !recipients || hasResumed.current) return;
    hasResumed.current = true;
    void (async () => {
      const accountKey = await getAccountKey(userId);
      if (!accountKey) return;
      for (const recipient of recipients) {
        if (recipient.sealedKey) await wrapFor(recipient.id, recipient.sealedKey, accountKey);
      }
    })();
  }, [isOn, recipients, userId, wrapFor]);

  /** Makes and sends a new card, then wraps the recipient's messages for it; answers the code. */
  const makeNewCard = useCallback(
    async (target: TShareTarget): Promise<string> => {
      const made = await replaceCard({
        userId,
        recipientId: target.id,
        email: target.email,
        isNextOfKin: target.category === 'next_of_kin',
      });
      void queryClient.invalidateQueries({ queryKey: RECIPIENTS_QUERY_KEY });
      const sealedKey = { keyId: made.card.keyId, ownerWrap: made.card.ownerWrap };
      void wrapFor(target.id, sealedKey, made.accountKey);
      return made.code;
    },
    [userId, queryClient, wrapFor],
  );

  const noteFor = (target: TShareTarget): string | null => {
    const shown = progress.get(target.id);
    return shown === undefined ? null : progressLine(target.firstName, shown);
  };

  const cardStateOf = (recipient: TRecipient): TCardState | null => {
    if (!isOn) return null;
    const why = cardProblemOf(recipient);
    return { needsNewCard: why !== null, ...(why ? { why } : {}), note: noteFor(recipient) };
  };

  return { isOn, makeNewCard, cardStateOf, noteFor };
}

export type TRecipientCards = ReturnType<typeof useRecipientCards>;
