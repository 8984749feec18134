import type { TSignPartsResult, TSignedPart } from '@shared/schemas/cloud';
import { apiRequest } from '@web/lib/api-client';
import { outgoingPartSealer, type TSealedCopy } from '@web/lib/encryption/seal-upload';
import { putPartWithRetry } from './put-part';

/**
 * Parts sealed ahead of the one on its way. A part is written out while the next is sealed; with
 * two ahead, neither holds up the send (docs/benchmarks.md, 'Two sealed parts ahead').
 */
const PARTS_AHEAD = 2;

/**
 * Sends the parts of a sealed copy still missing, in order, sealing each from its own plaintext
 * range shortly before it goes: the next parts are sealed, hashed and signed while this one is on
 * its way, so at most three sealed parts are held (one sending, two ready), whatever the size.
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
  const seal = outgoingPartSealer(copy, upload.partSize);
  const prepare = async (partNumber: number) => {
    const { sha256, body } = await seal(partNumber);
    return { partNumber, sha256, body, link: await linkFor({ partNumber, sha256 }) };
  };

  const ahead: Array<ReturnType<typeof prepare>> = [];
  // Sent parts' files, removed beside the next part's send, all gone before this returns.
  const discarded: Promise<void>[] = [];
  let queued = 0;
  const sealAhead = () => {
    for (; ahead.length < PARTS_AHEAD && queued < missing.length; queued += 1) {
      const part = prepare(missing[queued]!);
      // Its failure is thrown when it is awaited; a send that fails first leaves it unheard.
      part.catch(() => undefined);
      ahead.push(part);
    }
  };
  try {
    sealAhead();
    for (let next = ahead.shift(); next; next = ahead.shift()) {
      const { partNumber, sha256, body, link } = await next;
      sealAhead();
      try {
        const etag = await putPartWithRetry(link, body.body);
        await onSent({ partNumber, etag, sha256 });
      } finally {
        discarded.push(body.discard());
      }
    }
  } finally {
    copy.recording.close();
    // The parts sealed ahead, when sending stopped before them.
    await Promise.all([
      ...discarded,
      ...ahead.map((part) => part.then(({ body }) => body.discard()).catch(() => undefined)),
    ]);
  }
}
