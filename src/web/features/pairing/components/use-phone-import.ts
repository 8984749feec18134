import { useState } from 'react';
import { describeError } from '@web/lib/api-client';
import { sendFromPhone } from '../pairing-api';

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
export function usePhoneImport(token: string) {
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
    for (const [index, item] of chosen.entries()) {
      if (item.state === 'sent' || item.recipientId === null || !item.title.trim()) continue;
      update(index, { state: 'sending', sentBytes: 0, error: undefined });
      try {
        await sendFromPhone(
          token,
          { file: item.file, title: item.title.trim(), recipientId: item.recipientId },
          (sentBytes) => update(index, { sentBytes }),
        );
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
