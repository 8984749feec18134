import type { TSignPartsResult, TSignedPart } from '@shared/schemas/cloud';
import { apiRequest } from '@web/lib/api-client';
import { sealCopyPart, type TSealedCopy, type TSealedPart } from '@web/lib/encryption/seal-upload';
import { releaseBytes } from '@web/lib/sha256';
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
  const linkFor = async (part: Omit<TSealedPart, 'bytes'>): Promise<TSignedPart> => {
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
    const part = await sealCopyPart(copy, partNumber, upload.partSize);
    // Sent as a Blob: the browser keeps its bytes outside the page, which gives its own back now
    // (a buffer body would also be copied whole to any attached inspector, seconds a part).
    const body = new Blob([part.bytes], { type: 'application/octet-stream' });
    releaseBytes(part.bytes);
    return { partNumber, sha256: part.sha256, body, link: await linkFor(part) };
  };

  let next = missing[0] === undefined ? null : prepare(missing[0]);
  try {
    for (let index = 0; next; index += 1) {
      const { partNumber, sha256, body, link } = await next;
      const following = missing[index + 1];
      next = following === undefined ? null : prepare(following);
      // Its failure is thrown when it is awaited; a send that fails first leaves it unheard.
      next?.catch(() => undefined);
      const etag = await putPartWithRetry(link, body);
      await onSent({ partNumber, etag, sha256 });
    }
  } finally {
    copy.recording.close();
  }
}
