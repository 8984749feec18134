import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { WRAP_LABEL_PARTS } from '@shared/schemas/encryption';
import { STATION_SEALING_MESSAGES, type TStationUnlocked } from '@shared/schemas/station-sealing';
import { generateWrappingKey, openStream, unwrapKey, wrapKey, wrapLabel } from '@shared/sealing';
import { makeAccountKeys } from '@web/features/encryption/turn-on';
import {
  dropStationKey,
  holdsStationKeyFor,
  onStationKeyDropped,
  saveSealedAtStation,
  unlockForResident,
} from '@web/features/stations/station-key';
import { saveDeviceId } from '@web/lib/device-id';

// A sealed resident's keys on a station's page: opened with the password's key half (only the
// sign-in half is sent), held in memory, dropped when the page is hidden or the session ends; a
// take goes sealed, and a retry sends the same bytes.

const RESIDENT = 12;
const PASSWORD = 'Roses&Marmalade-1931';
const RECIPIENT = 40;

let made: Awaited<ReturnType<typeof makeAccountKeys>>;
let recipientKey: CryptoKey;
let unlocked: TStationUnlocked;

beforeAll(async () => {
  saveDeviceId('0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8');
  made = await makeAccountKeys(RESIDENT, PASSWORD);
  const { accountKey } = made;
  recipientKey = await generateWrappingKey({ extractable: true });
  unlocked = {
    passwordWrap: made.body.passwordWrap,
    passwordKdf: made.body.passwordKdf,
    recipientKeys: [
      {
        recipientId: RECIPIENT,
        keyId: 'b5f1c7a2-8d3e-4f60-9a1b-2c3d4e5f6a7b',
        ownerWrap: await wrapKey(
          recipientKey,
          accountKey,
          wrapLabel(...WRAP_LABEL_PARTS.recipientByOwner('b5f1c7a2-8d3e-4f60-9a1b-2c3d4e5f6a7b')),
        ),
      },
    ],
  };
}, 60_000);

type TSent = { url: string; body: unknown };

/** The network: the unlock answered as the server answers a right proof; saves as `saves` say. */
function serve(saves: number[] = [201]): TSent[] {
  const sent: TSent[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    sent.push({ url, body: init?.body });
    if (url === '/api/station/sealing/unlock') {
      return Response.json(unlocked);
    }
    const status = saves.shift() ?? 201;
    return status === 201
      ? Response.json({ saved: true, recipientName: 'Anna Hill' }, { status })
      : Response.json({ message: 'The message could not be saved. Please try again.' }, { status });
  });
  return sent;
}

beforeEach(() => {
  vi.stubGlobal('window', new EventTarget());
});

afterEach(() => {
  dropStationKey();
  vi.unstubAllGlobals();
});

const unlock = () =>
  unlockForResident({
    residentId: RESIDENT,
    password: PASSWORD,
    passwordKdf: made.body.passwordKdf,
  });

describe('a sealed resident’s keys at a station', () => {
  it('sends only the password’s sign-in half, and holds the key until the page is hidden', async () => {
    const sent = serve();
    await unlock();
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!.body as string)).toEqual({
      passwordProof: made.body.passwordProof,
    });
    expect(String(sent[0]!.body)).not.toContain(PASSWORD);
    expect(holdsStationKeyFor(RESIDENT)).toBe(true);
    expect(holdsStationKeyFor(RESIDENT + 1)).toBe(false);

    const dropped = vi.fn();
    const stop = onStationKeyDropped(dropped);
    window.dispatchEvent(new Event('pagehide'));
    expect(holdsStationKeyFor(RESIDENT)).toBe(false);
    expect(dropped).toHaveBeenCalledTimes(1);
    stop();
  }, 30_000);

  it('seals each take before it leaves, for the resident and the recipient’s card', async () => {
    const sent = serve([500, 201]);
    const takeId = '6f0e2d1c-3b4a-4c5d-8e7f-9a0b1c2d3e4f';
    const recording = new Uint8Array(300_000).map((_, i) => (i * 7) % 251);
    const blob = new Blob([recording], { type: 'video/webm;codecs=vp8' });
    const take = { residentId: RESIDENT, takeId, blob, recipientId: RECIPIENT, durationMs: 4200 };
    // Before the password: nothing is sent.
    await expect(saveSealedAtStation(take)).rejects.toThrow(STATION_SEALING_MESSAGES.unlockFirst);
    expect(sent).toHaveLength(0);

    await unlock();
    await expect(saveSealedAtStation(take)).rejects.toThrow(
      'The message could not be saved. Please try again.',
    );
    expect(await saveSealedAtStation(take)).toEqual({ saved: true, recipientName: 'Anna Hill' });
    const [first, second] = sent.slice(1);
    // The retry sends the same sealed bytes under the same wraps: one message, whatever happened.
    expect(second!.url).toBe(first!.url);
    const bytes = new Uint8Array(await (second!.body as Blob).arrayBuffer());
    expect(new Uint8Array(await (first!.body as Blob).arrayBuffer())).toEqual(bytes);
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('MMSV');

    const query = new URL(second!.url, 'http://station').searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      takeId,
      recipientId: String(RECIPIENT),
      durationMs: '4200',
      mimeType: 'video/webm',
    });
    // The recipient's card opens it to the recording.
    const contentKey = await unwrapKey(
      query.get('recipientKeyWrap')!,
      recipientKey,
      wrapLabel(...WRAP_LABEL_PARTS.contentForRecipient(takeId, unlocked.recipientKeys[0]!.keyId)),
      'content',
    );
    const opened = await new Response(
      openStream(contentKey, new Blob([bytes]).stream(), takeId),
    ).arrayBuffer();
    expect(new Uint8Array(opened)).toEqual(recording);
    // And so does the resident's account key.
    await expect(
      unwrapKey(
        query.get('keyWrap')!,
        made.accountKey,
        wrapLabel(...WRAP_LABEL_PARTS.contentForOwner(takeId)),
        'content',
      ),
    ).resolves.toBeDefined();

    // Finished: the next save has no key to seal with.
    dropStationKey();
    await expect(saveSealedAtStation({ ...take, takeId: crypto.randomUUID() })).rejects.toThrow(
      STATION_SEALING_MESSAGES.unlockFirst,
    );
  }, 30_000);
});
