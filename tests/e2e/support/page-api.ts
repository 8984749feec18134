import { expect, type Page } from '@playwright/test';
import type { TPlayback } from '../../../src/shared/schemas/cloud';

/** A call from inside the page, as the app makes it: its cookie and its device id. */
export function callApi<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const response = await fetch(url, {
        method,
        credentials: 'include',
        headers: {
          'X-Device-ID': localStorage.getItem('deviceId') ?? '',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok)
        throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
      return response.status === 204 ? null : response.json();
    },
    { method, url, body },
  ) as Promise<T>;
}

/**
 * The first 4 bytes of a message's cloud copy, fetched from the address its playback answer gives
 * the owner ('MMSV' when sealed), with who the answer says holds the key.
 */
export async function storedCopyStart(
  page: Page,
  serverUrl: string,
  videoId: string,
): Promise<{ start: string; holder: string | undefined }> {
  const playback = await callApi<TPlayback>(page, 'GET', `/api/videos/${videoId}/playback`);
  const res = await page.request.get(new URL(playback.url, serverUrl).href);
  expect(res.ok()).toBe(true);
  return {
    start: (await res.body()).subarray(0, 4).toString('latin1'),
    holder: playback.sealed?.holder,
  };
}
