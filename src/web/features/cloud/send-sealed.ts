import type { TSignPartsResult, TSignedPart } from '@shared/schemas/cloud';
import { apiRequest } from '@web/lib/api-client';
import { sealOutgoingPart, type TSealedCopy } from '@web/lib/encryption/seal-upload';
import { putPartWithRetry } from './put-part';

/**
 * Sends the parts of a sealed copy still missing, in order, sealing each from its own plaintext
 * range just before it goes: the next part is sealed, hashed and signed while this one is on its
 * way, so at most two sealed parts are held (the one sending, the one ready), whatever the size.
 * `onSent` keeps each part's ETag and SHA-256 before the next is sent: a reload sends again at
 * most the part that was on its way, sealed again byte for byte from the kept sealing.
 */
export async function sendSealedParts(input: {
  copy: TSealedCopy;
  upload: { uploadId: string; partSize: number; needsPartChecksums: boolean };
  missing: readonly number[];
  /** The links the upload's start signed (file mode), used as they are. */
  signedAtStart: readonly TSignedPart[];
  onSent: (part: { partNumber: number; etag: string; sha256: string }) => Promise<void>;
}): Promise<void> {
  const { copy, upload, missing, onSent } = input;
  const signed = new Map(input.signedAtStart.map((part) => [part.partNumber, part]));
  // S3 binds a part's checksum into its link, so a part is signed only once it is sealed.
  const linkFor = async (part: { partNumber: number; sha256: string }): Promise<TSignedPart> => {
    const ready = upload.needsPartChecksums ? undefined : signed.get(part.partNumber);
    if (ready) return ready;
    const answer = await apiRequest<TSignPartsResult>(`/api/uploads/${upload.uploadId}/sign`, {
      method: 'POST',
      body: {
        partNumbers: [part.partNumber],
        ...(upload.needsPartChecksums ? { sha256s: [part.sha256] } : {}),
      },
    });
    const link = answer.parts[0];
    if (!link) throw new Error(`part ${part.partNumber} was not signed`);
    return link;
  };
  const prepare = async (partNumber: number) => {
    const { sha256, body } = await sealOutgoingPart(copy, partNumber, upload.partSize);
    return { partNumber, sha256, body, link: await linkFor({ partNumber, sha256 }) };
  };

  let next = missing[0] === undefined ? null : prepare(missing[0]);
  try {
    for (let index = 0; next; index += 1) {
      const { partNumber, sha256, body, link } = await next;
      const following = missing[index + 1];
      next = following === undefined ? null : prepare(following);
      // Its failure is thrown when it is awaited; a send that fails first leaves it unheard.
      next?.catch(() => undefined);
      try {
        const etag = await putPartWithRetry(link, body.body);
        await onSent({ partNumber, etag, sha256 });
      } finally {
        await body.discard();
      }
    }
  } finally {
    copy.recording.close();
    // The part sealed ahead, when sending stopped before it.
    await next?.then((part) => part.body.discard()).catch(() => undefined);
  }
}
