import { useState } from 'react';
import { describeError } from '@web/lib/api-client';
import { importPairingKey } from '@web/lib/encryption/pairing-key';
import { sendFromPhone } from '../pairing-api';
import { sendSealedFromPhone, type TPhoneSealing } from '../send-sealed-from-phone';

export const PHONE_SEALING_TEXT = {
  keyMissing:
    'This phone cannot seal videos for this account: the link was not opened whole. Please scan the code on your main device again.',
  notSealing:
    'This link is for an account that seals its videos, but the pairing does not say so. Please scan a new code on your main device.',
} as const;

/**
 * How this phone must send: sealed under the pairing key when the pairing has one (the key from
 * the link's fragment), plain when neither has. A link that carries a key never sends plain.
 */
async function sealingFor(options: {
  pairingKeyId: string | null;
  fragmentKey: string | null;
}): Promise<TPhoneSealing | null> {
  const { pairingKeyId, fragmentKey } = options;
  if (!pairingKeyId) {
    if (fragmentKey) throw new Error(PHONE_SEALING_TEXT.notSealing);
    return null;
  }
  const key = fragmentKey ? await importPairingKey(fragmentKey).catch(() => null) : null;
  if (!key) throw new Error(PHONE_SEALING_TEXT.keyMissing);
  return { key, keyId: pairingKeyId };
}

export interface TChosen {
  file: File;
  title: string;
  recipientId: number | null;
  state: 'ready' | 'sending' | 'sent' | 'failed';
  sentBytes: number;
  error?: string;
}

const titleFromName = (name: string) =>
  name
    .replace(/\.[^.]+$/, '')
    .replace(/[_-]+/g, ' ')
    .trim();

/** The videos chosen on the phone, each with its title and recipient, sent one after another. */
export function usePhoneImport(
  token: string,
  options: { pairingKeyId: string | null; fragmentKey: string | null },
) {
  const [chosen, setChosen] = useState<TChosen[]>([]);
  const [isSending, setIsSending] = useState(false);

  const update = (index: number, change: Partial<TChosen>) =>
    setChosen((current) =>
      current.map((item, at) => (at === index ? { ...item, ...change } : item)),
    );

  /** A new choice replaces the last; with one recipient, each video is already for them. */
  function choose(files: FileList | null, onlyRecipientId: number | null) {
    setChosen(
      [...(files ?? [])].map((file) => ({
        file,
        title: titleFromName(file.name),
        recipientId: onlyRecipientId,
        state: 'ready' as const,
        sentBytes: 0,
      })),
    );
  }

  async function sendAll() {
    setIsSending(true);
    const sealing = sealingFor(options);
    // Its failure is each video's, told when awaited; never unheard when nothing is sent.
    sealing.catch(() => undefined);
    for (const [index, item] of chosen.entries()) {
      if (item.state === 'sent' || item.recipientId === null || !item.title.trim()) continue;
      update(index, { state: 'sending', sentBytes: 0, error: undefined });
      try {
        const sealWith = await sealing;
        const video = { file: item.file, title: item.title.trim(), recipientId: item.recipientId };
        const onProgress = (sentBytes: number) => update(index, { sentBytes });
        await (sealWith
          ? sendSealedFromPhone(token, sealWith, video, onProgress)
          : sendFromPhone(token, video, onProgress));
        update(index, { state: 'sent', sentBytes: item.file.size });
      } catch (error) {
        update(index, {
          state: 'failed',
          error: describeError(error, 'This video could not be sent.'),
        });
      }
    }
    setIsSending(false);
  }

  const canSend =
    chosen.length > 0 &&
    chosen.some((item) => item.state !== 'sent') &&
    chosen.every(
      (item) => item.state === 'sent' || (item.recipientId !== null && item.title.trim()),
    );

  return { chosen, isSending, canSend, update, choose, sendAll };
}
