import { beforeEach, describe, expect, it } from 'vitest';
import {
  FIRST_SEGMENT_PLAINTEXT_BYTES as P0,
  HEADER_BYTES,
  SEALED_SEGMENT_BYTES as S,
  sealedRangeFor,
  segmentOfPlaintextByte,
  SEGMENT_PLAINTEXT_BYTES as P,
} from '../../src/shared/sealing';
import type { TSealedPlayback } from '../../src/web/service-worker/sealed-messages';
import {
  fetchWindows,
  MAX_REPLY_BYTES,
  planReply,
  WINDOW_SEGMENTS,
} from '../../src/web/service-worker/sealed-range';
import { answerSealed, forgetHeaders } from '../../src/web/service-worker/sealed-reply';
import { sealedReader, type TSourceDeps } from '../../src/web/service-worker/sealed-source';
import {
  countingReader,
  expectSameBytes,
  MESSAGE_ID,
  readAll,
  recording,
  sealBytes,
} from './sealing-helpers';

// The service worker's side of sealed playback: how it answers the player's Range requests, which
// sealed bytes it asks the store for, and how it renews an expired URL.

const LONG = 40 * 1024 * 1024 + 12_345;

describe('planning a reply to the player’s Range header', () => {
  it('answers a closed range exactly, with the headers a player needs', () => {
    expect(planReply('bytes=100-199', 1_000, 'video/webm')).toEqual({
      status: 206,
      range: { first: 100, last: 199 },
      headers: {
        'accept-ranges': 'bytes',
        'cache-control': 'no-store',
        'content-type': 'video/webm',
        'content-length': '100',
        'content-range': 'bytes 100-199/1000',
      },
    });
  });

  it('caps an open end at 8 MiB, and gives the rest of a short message whole', () => {
    const capped = planReply('bytes=1000-', LONG, 'video/webm');
    expect(capped).toMatchObject({
      status: 206,
      range: { first: 1000, last: 1000 + MAX_REPLY_BYTES - 1 },
    });
    expect(capped.headers['content-range']).toBe(
      `bytes 1000-${1000 + MAX_REPLY_BYTES - 1}/${LONG}`,
    );
    expect(planReply('bytes=0-', 5_000, 'video/mp4')).toMatchObject({
      status: 206,
      range: { first: 0, last: 4_999 },
      headers: { 'content-length': '5000', 'content-range': 'bytes 0-4999/5000' },
    });
  });

  it('answers the last bytes for a suffix range, and clamps an end past the message', () => {
    expect(planReply('bytes=-500', 1_000, 'video/webm')).toMatchObject({
      status: 206,
      range: { first: 500, last: 999 },
    });
    expect(planReply('bytes=900-5000', 1_000, 'video/webm')).toMatchObject({
      range: { first: 900, last: 999 },
    });
  });

  it('gives the whole message when no range is asked for or it cannot be read', () => {
    for (const header of [null, '', 'items=0-1', 'bytes=0-1,5-6']) {
      expect(planReply(header, 1_000, 'video/webm')).toMatchObject({
        status: 200,
        range: { first: 0, last: 999 },
        headers: { 'content-length': '1000' },
      });
    }
    expect(planReply(null, 0, 'video/webm')).toMatchObject({ status: 200, range: null });
  });

  it('refuses a range that starts past the end with 416 and the length', () => {
    expect(planReply('bytes=1000-', 1_000, 'video/webm')).toEqual({
      status: 416,
      headers: {
        'accept-ranges': 'bytes',
        'cache-control': 'no-store',
        'content-range': 'bytes */1000',
      },
    });
  });
});

describe('fetch windows: a reply asked of the store a few segments at a time', () => {
  const cases = [
    { name: 'one byte', first: 7, last: 7 },
    { name: 'a few bytes across the first boundary', first: P0 - 3, last: P0 + 3 },
    {
      name: 'an open-ended reply from a seek',
      first: 31_000_000,
      last: 31_000_000 + MAX_REPLY_BYTES - 1,
    },
    { name: 'the whole of a long message', first: 0, last: LONG - 1 },
  ];

  it.each(cases)('cover $name exactly, each window at most 8 segments', (range) => {
    const windows = fetchWindows(range);
    expect(windows[0]?.first).toBe(range.first);
    expect(windows.at(-1)?.last).toBe(range.last);
    windows.forEach((window, index) => {
      expect(window.first).toBeLessThanOrEqual(window.last);
      if (index > 0) expect(window.first).toBe(windows[index - 1]!.last + 1);
      const segments =
        segmentOfPlaintextByte(window.last) - segmentOfPlaintextByte(window.first) + 1;
      expect(segments).toBeLessThanOrEqual(WINDOW_SEGMENTS);
      // Windows meet at segment boundaries: no segment is fetched twice.
      if (index > 0)
        expect(segmentOfPlaintextByte(window.first)).toBe(
          segmentOfPlaintextByte(window.first - 1) + 1,
        );
    });
    const needed = sealedRangeFor(range.first, range.last, LONG);
    const sealedBytes = windows
      .map((window) => sealedRangeFor(window.first, window.last, LONG))
      .reduce((sum, part) => sum + part.end - part.start, 0);
    expect(sealedBytes).toBe(needed.end - needed.start);
  });
});

describe('answering /sealed/<id> from the stored object', () => {
  const length = 6 * 1024 * 1024 + 777;
  const bytes = recording(length);
  const sealedPromise = sealBytes(bytes);

  beforeEach(() => forgetHeaders());

  async function answer(range: string | null, sealed: Uint8Array, key: CryptoKey) {
    const { read, reads } = countingReader(sealed);
    const playback = playbackFor(key, sealed.length, length);
    const request = new Request('https://memento.test/sealed/x', {
      headers: range === null ? {} : { range },
    });
    return { response: await answerSealed(request, playback, read), reads };
  }

  it('answers a seek to 80 % with its bytes, reading only the segments that hold them', async () => {
    const { key, sealed } = await sealedPromise;
    const first = Math.floor(length * 0.8);
    const { response, reads } = await answer(`bytes=${first}-`, sealed, key);
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${first}-${length - 1}/${length}`);
    expectSameBytes(await readAll(response.body!), bytes.subarray(first));

    expect(reads[0]).toEqual({ start: 0, end: HEADER_BYTES });
    const needed = sealedRangeFor(first, length - 1, length);
    expect(reads[1]?.start).toBe(needed.start);
    expect(reads.at(-1)?.end).toBe(needed.end);
    const fetched = reads.slice(1).reduce((sum, read) => sum + read.end - read.start, 0);
    expect(fetched).toBe(needed.end - needed.start);
    expect(fetched).toBeLessThan(sealed.length * 0.25);
    for (const read of reads.slice(1)) {
      expect(read.end - read.start).toBeLessThanOrEqual(WINDOW_SEGMENTS * S);
    }
  });

  it('fetches nothing past what the player has read', async () => {
    const { key, sealed } = await sealedPromise;
    const { response, reads } = await answer('bytes=0-', sealed, key);
    const reader = response.body!.getReader();
    let received = 0;
    while (received < P * 2) received += (await reader.read()).value?.length ?? 0;
    await reader.cancel();
    expect(reads.slice(1)).toHaveLength(1);
    expect(reads[1]!.end - reads[1]!.start).toBe(WINDOW_SEGMENTS * S - HEADER_BYTES);
  });

  it('gives the whole message with 200 when no range is asked for', async () => {
    const { key, sealed } = await sealedPromise;
    const { response } = await answer(null, sealed, key);
    expect(response.status).toBe(200);
    expectSameBytes(await readAll(response.body!), bytes);
  });

  it('errors the stream at a changed segment, and gives out none of its bytes', async () => {
    const { key, sealed } = await sealedPromise;
    const changed = sealed.slice();
    const at = 3 * S + 100;
    changed[at] = changed[at]! ^ 0x01;
    const { response } = await answer('bytes=0-', changed, key);
    expect(response.status).toBe(206);
    const reader = response.body!.getReader();
    let received = 0;
    const failure = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return null;
        received += value.length;
      }
    })().catch((error: unknown) => error);
    expect(String(failure)).toContain('changed or damaged');
    expect(received).toBe(P0 + 2 * P);
  });

  it('refuses another message’s object before any of it is played', async () => {
    const other = await sealBytes(recording(1_000), {
      messageId: '8a7b6c5d-4e3f-4a2b-9c1d-0e1f2a3b4c5d',
    });
    const { response } = await answer('bytes=0-', other.sealed, other.key);
    expect(response.type).toBe('error');
  });
});

function playbackFor(key: CryptoKey, objectSize: number, plaintextLength: number): TSealedPlayback {
  return {
    videoId: MESSAGE_ID,
    contentKey: key,
    url: 'https://store.test/object?sig=old',
    objectSize,
    plaintextLength,
    mimeType: 'video/webm',
    deviceId: '0b7c6a1e-2f3d-4c5b-8a9e-1d2c3b4a5f60',
  };
}

describe('reading sealed bytes from the store', () => {
  type TCall = { url: string; init: RequestInit | undefined };

  function fakeStore(answers: Array<(call: TCall) => Response>) {
    const calls: TCall[] = [];
    const renewed: string[] = [];
    const deps: TSourceDeps = {
      origin: 'https://memento.test',
      fetch: async (input, init) => {
        const call = { url: String(input), init };
        calls.push(call);
        const next = answers.shift();
        if (!next) throw new Error('no more answers');
        return next(call);
      },
      onRenewed: async (_videoId, url) => {
        renewed.push(url);
      },
    };
    return { deps, calls, renewed };
  }

  const partial = (start: number, end: number, size: number) =>
    new Response(new Uint8Array(end - start), {
      status: 206,
      headers: { 'content-range': `bytes ${start}-${end - 1}/${size}` },
    });
  const playback = { ...playbackFor({} as CryptoKey, 10_000, 0) };

  it('asks the store for just the range, without our cookies', async () => {
    const { deps, calls } = fakeStore([() => partial(40, 1_040, 10_000)]);
    await sealedReader(deps, playback)(40, 1_040);
    expect(calls[0]!.url).toBe(playback.url);
    expect(calls[0]!.init).toMatchObject({
      headers: { range: 'bytes=40-1039' },
      credentials: 'omit',
    });
  });

  it('sends the cookie to our own server’s URL (file mode)', async () => {
    const { deps, calls } = fakeStore([() => partial(0, 40, 10_000)]);
    await sealedReader(deps, { ...playback, url: '/api/videos/x/content?sig=1' })(0, 40);
    expect(calls[0]!.init).toMatchObject({ credentials: 'same-origin' });
  });

  it.each([403, 404, 410, 401])(
    'renews an expired URL (%i) once, as the device, and keeps the new one',
    async (status) => {
      const fresh = 'https://store.test/object?sig=new';
      const { deps, calls, renewed } = fakeStore([
        () => new Response('expired', { status }),
        () => Response.json({ url: fresh, byteSize: 10_000 }),
        () => partial(40, 1_040, 10_000),
        () => partial(1_040, 2_040, 10_000),
      ]);
      const read = sealedReader(deps, playback);
      await read(40, 1_040);
      await read(1_040, 2_040);
      expect(calls.map((call) => call.url)).toEqual([
        playback.url,
        `/api/videos/${MESSAGE_ID}/playback`,
        fresh,
        fresh,
      ]);
      expect(calls[1]!.init).toMatchObject({
        credentials: 'same-origin',
        headers: { 'x-device-id': playback.deviceId },
      });
      expect(renewed).toEqual([fresh]);
    },
  );

  it('fails when the URL stays refused, or the store ignores the range', async () => {
    const refused = fakeStore([
      () => new Response(null, { status: 403 }),
      () => new Response(null, { status: 404 }),
    ]);
    await expect(sealedReader(refused.deps, playback)(0, 40)).rejects.toThrow(
      'playback answered 404',
    );
    const whole = fakeStore([() => new Response(new Uint8Array(10_000), { status: 200 })]);
    await expect(sealedReader(whole.deps, playback)(40, 1_040)).rejects.toThrow('answered 200');
    const shifted = fakeStore([() => partial(0, 1_000, 10_000)]);
    await expect(sealedReader(shifted.deps, playback)(40, 1_040)).rejects.toThrow('answered 206');
  });
});
