import type { TPartReceived, TSignedPart } from '@shared/schemas/cloud';
import { DEVICE_HEADER } from '@shared/domain/device';
import { NetworkError } from '@web/lib/api-client';
import { getDeviceId } from '@web/lib/device-id';
import { partHeaders } from '@web/lib/part-checksums';

/** How long to wait before trying a part again after a network error or a server hiccup. */
const RETRY_DELAYS_MS = [1_000, 3_000, 10_000];

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * PUTs one part where the server said: its own part endpoint (with this device's header and the
 * session cookie), or a presigned URL of the store (nothing of ours attached). Answers the ETag.
 */
async function putPart(part: TSignedPart, bytes: Blob | Uint8Array<ArrayBuffer>): Promise<string> {
  const response = await fetch(part.url, {
    method: 'PUT',
    body: bytes,
    headers: partHeaders(part, {
      [DEVICE_HEADER]: getDeviceId() ?? '',
      'Content-Type': 'application/octet-stream',
    }),
    ...(part.isSameOrigin ? { credentials: 'include' as const } : {}),
  });
  if (!response.ok) throw new Error(`part ${part.partNumber} answered ${response.status}`);
  const etag =
    response.headers.get('etag') ??
    (part.isSameOrigin ? ((await response.json()) as TPartReceived).etag : null);
  if (!etag) throw new Error('the store did not say which part arrived (ETag)');
  return etag;
}

export async function putPartWithRetry(
  part: TSignedPart,
  bytes: Blob | Uint8Array<ArrayBuffer>,
): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await putPart(part, bytes);
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined) throw new NetworkError(error);
      await wait(delay);
    }
  }
}
