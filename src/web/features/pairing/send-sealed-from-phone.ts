import type { TCreateUploadResult, TSignPartsResult, TSignedPart } from '@shared/schemas/cloud';
import { sealForPairing } from '@web/lib/encryption/pairing-key';
import { outgoingPartSealer } from '@web/lib/encryption/seal-upload';
import { phoneRequest, putPhonePart, readDurationMs } from './pairing-api';

/** The pairing key the owner's device put in the link's fragment, and its id from the server. */
export interface TPhoneSealing {
  key: CryptoKey;
  keyId: string;
}

/**
 * Sends one gallery video sealed on the phone, for an account that seals every copy: a content
 * key of its own, wrapped under the pairing key only, and each part sealed just before it goes
 * (the same format and part upload as the owner's devices). The server checks each part's
 * SHA-256; what it keeps is sealed bytes, which nobody can open until the owner's device wraps
 * the key again for the owner.
 */
export async function sendSealedFromPhone(
  token: string,
  sealWith: TPhoneSealing,
  input: { file: File; title: string; recipientId: number },
  onProgress: (sentBytes: number) => void,
): Promise<void> {
  const { file } = input;
  const id = crypto.randomUUID();
  const [copy, durationMs] = await Promise.all([
    sealForPairing({
      videoId: id,
      recording: file,
      pairingKey: sealWith.key,
      keyId: sealWith.keyId,
    }),
    readDurationMs(file),
  ]);
  const started = await phoneRequest<TCreateUploadResult>(token, '/api/pairing/videos', {
    method: 'POST',
    body: {
      id,
      recipientId: input.recipientId,
      title: input.title,
      durationMs,
      mimeType: file.type || 'video/mp4',
      byteSize: copy.byteSize,
      sealed: { pairingKeyWrap: copy.keyWrap },
    },
  });
  if (started.state === 'synced') return;
  const signedAtStart = new Map(started.parts.map((part) => [part.partNumber, part]));
  // S3 binds a part's checksum into its link, so a part is signed only once it is sealed.
  const linkFor = async (partNumber: number, sha256: string): Promise<TSignedPart> => {
    const ready = started.needsPartChecksums ? undefined : signedAtStart.get(partNumber);
    if (ready) return ready;
    const answer = await phoneRequest<TSignPartsResult>(
      token,
      `/api/uploads/${started.uploadId}/sign`,
      { method: 'POST', body: { partNumbers: [partNumber], sha256s: [sha256] } },
    );
    const link = answer.parts[0];
    if (!link) throw new Error('The upload could not be started. Please try again.');
    return link;
  };
  const sent: Array<{ partNumber: number; etag: string; sha256: string }> = [];
  const sealNext = outgoingPartSealer(copy, started.partSize);
  for (let partNumber = 1; partNumber <= started.partCount; partNumber += 1) {
    const { sha256, body } = await sealNext(partNumber);
    try {
      const etag = await putPhonePart(token, await linkFor(partNumber, sha256), body.body);
      sent.push({ partNumber, etag, sha256 });
    } finally {
      await body.discard();
    }
    onProgress(Math.min(file.size, partNumber * started.partSize));
  }
  await phoneRequest(token, `/api/uploads/${started.uploadId}/complete`, {
    method: 'POST',
    body: { parts: sent },
  });
}
