import 'fake-indexeddb/auto';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENCRYPTION_MESSAGES, type TEncryptionState } from '@shared/schemas/encryption';
import { checkRecoveryCode, generateRecoveryCode } from '@shared/sealing';
import { makeAccountKeys } from '@web/features/encryption/turn-on';
import { saveDeviceId } from '@web/lib/device-id';
import {
  forgetAccountKeys,
  getAccountKey,
  getDeviceKey,
  hasAccountKey,
  keepAccountKey,
} from '@web/lib/encryption/device-keys';
import {
  describeRecoveryCodeProblem,
  openAccountKey,
  UNLOCK_MESSAGES,
  unlockWithPassword,
  unlockWithRecoveryCode,
} from '@web/lib/encryption/unlock';
import { localDb } from '@web/lib/videos/local-store';

const OWNER = 7;
const PASSWORD = 'Tulips&Tea-2026';
const DEVICE_ID = '0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8';

/** The server's answer once the owner has turned it on, as GET /api/encryption gives it. */
function onState(body: Awaited<ReturnType<typeof makeAccountKeys>>['body']): TEncryptionState {
  return {
    state: 'on',
    turnedOnAt: '2026-12-02T10:00:00.000Z',
    passwordWrap: body.passwordWrap,
    passwordKdf: body.passwordKdf,
    isPasswordWrapCurrent: true,
    recoveryWrap: body.recoveryWrap,
    recoveryKdf: body.recoveryKdf,
  };
}

/** Whether two keys are the same key: one wraps a probe key, the other must unwrap it. */
async function isSameKey(a: CryptoKey, b: CryptoKey): Promise<boolean> {
  const probe = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, [
    'encrypt',
  ]);
  const iv = new Uint8Array(12);
  const wrapped = await crypto.subtle.wrapKey('raw', probe, a, { name: 'AES-GCM', iv });
  return crypto.subtle
    .unwrapKey('raw', wrapped, b, { name: 'AES-GCM', iv }, 'AES-GCM', false, ['encrypt'])
    .then(
      () => true,
      () => false,
    );
}

let made: Awaited<ReturnType<typeof makeAccountKeys>>;

beforeAll(async () => {
  saveDeviceId(DEVICE_ID);
  made = await makeAccountKeys(OWNER, PASSWORD);
}, 60_000);

beforeEach(async () => {
  await localDb.keys.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('turning it on', () => {
  it('sends the account key only wrapped, never the recovery code', () => {
    const sent = JSON.stringify(made.body);
    expect(checkRecoveryCode(made.recoveryCode).isValid).toBe(true);
    expect(sent).not.toContain(made.recoveryCode);
    expect(sent).not.toContain(made.recoveryCode.replace(/-/g, ''));
    expect(made.body).toMatchObject({
      password: PASSWORD,
      passwordKdf: { algorithm: 'PBKDF2-SHA-256', iterations: 600_000 },
      recoveryKdf: { algorithm: 'PBKDF2-SHA-256', iterations: 600_000 },
    });
    expect(made.body.passwordKdf.salt).not.toBe(made.body.recoveryKdf.salt);
  });
});

describe('the keys on this device', () => {
  it('keeps a device key that cannot be exported, made once', async () => {
    const first = await getDeviceKey();
    expect(first.extractable).toBe(false);
    expect(await isSameKey(first, await getDeviceKey())).toBe(true);
    const rows = await localDb.keys.toArray();
    expect(rows.map((row) => row.id)).toEqual(['device']);
  });

  it('keeps the account key only wrapped under the device key, and opens it again', async () => {
    expect(await getAccountKey(OWNER)).toBeNull();
    await keepAccountKey(OWNER, made.accountKey);
    const row = await localDb.keys.get(`account:${OWNER}`);
    expect(row).toMatchObject({ userId: OWNER, deviceId: DEVICE_ID, wrap: expect.any(String) });
    const opened = await getAccountKey(OWNER);
    expect(opened?.extractable).toBe(false);
    expect(await isSameKey(made.accountKey, opened!)).toBe(true);
    // Another account on this browser holds nothing.
    expect(await getAccountKey(OWNER + 1)).toBeNull();
  });

  it('treats a wrap moved to another account or device as no key at all', async () => {
    await keepAccountKey(OWNER, made.accountKey);
    const row = await localDb.keys.get(`account:${OWNER}`);
    await localDb.keys.put({
      ...(row as object),
      id: `account:${OWNER + 1}`,
      userId: OWNER + 1,
    } as never);
    expect(await getAccountKey(OWNER + 1)).toBeNull();
    await localDb.keys.put({
      ...(row as object),
      deviceId: '11111111-2222-4333-8444-555555555555',
    } as never);
    expect(await getAccountKey(OWNER)).toBeNull();
  });

  it('forgets every account key at sign-out and keeps the device key', async () => {
    const deviceKey = await getDeviceKey();
    await keepAccountKey(OWNER, made.accountKey);
    await keepAccountKey(OWNER + 1, made.accountKey);
    await forgetAccountKeys();
    expect(await hasAccountKey(OWNER)).toBe(false);
    expect(await hasAccountKey(OWNER + 1)).toBe(false);
    expect(await isSameKey(deviceKey, await getDeviceKey())).toBe(true);
  });
});

describe('unlocking a device', () => {
  it('opens the account key with the password and keeps it here', async () => {
    await openAccountKey(onState(made.body), OWNER, 'password', PASSWORD);
    expect(await isSameKey(made.accountKey, (await getAccountKey(OWNER))!)).toBe(true);
  }, 30_000);

  it('opens it with the recovery code as typed from the sheet: any case, with spaces', async () => {
    const typed = made.recoveryCode.toLowerCase().replace(/-/g, ' ');
    await unlockAfterAnswer(onState(made.body), () => unlockWithRecoveryCode(OWNER, typed));
    expect(await isSameKey(made.accountKey, (await getAccountKey(OWNER))!)).toBe(true);
  }, 30_000);

  it('says plainly when the password is wrong, and keeps nothing', async () => {
    await expect(
      unlockAfterAnswer(onState(made.body), () => unlockWithPassword(OWNER, 'not-my-password')),
    ).rejects.toThrow(ENCRYPTION_MESSAGES.wrongPassword);
    expect(await hasAccountKey(OWNER)).toBe(false);
  }, 30_000);

  it('says so when another valid recovery code is typed', async () => {
    await expect(
      openAccountKey(onState(made.body), OWNER, 'recovery', generateRecoveryCode()),
    ).rejects.toThrow(UNLOCK_MESSAGES.wrongRecoveryCode);
  }, 30_000);

  it('refuses weaker settings than ours, as a server lowering them would send', async () => {
    const state = onState(made.body);
    if (state.state !== 'on') throw new Error('on');
    const weak = { ...state, passwordKdf: { ...state.passwordKdf, iterations: 1_000 } };
    await expect(openAccountKey(weak, OWNER, 'password', PASSWORD)).rejects.toThrow(
      UNLOCK_MESSAGES.unsafeSettings,
    );
  });

  it('names a mistyped group before any slow work, and asks the server nothing', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const groups = made.recoveryCode.split('-');
    const wrongChar = groups[2]![0] === 'A' ? 'B' : 'A';
    groups[2] = wrongChar + groups[2]!.slice(1);
    await expect(unlockWithRecoveryCode(OWNER, groups.join('-'))).rejects.toThrow(
      'Please look again at group 3: it does not match your recovery sheet.',
    );
    await expect(unlockWithRecoveryCode(OWNER, 'ABCD-EFGH')).rejects.toThrow(
      UNLOCK_MESSAGES.codeLength,
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it('says when it is not on at all', async () => {
    await expect(
      openAccountKey({ state: 'off', isOffered: true }, OWNER, 'password', PASSWORD),
    ).rejects.toThrow(UNLOCK_MESSAGES.notOn);
  });
});

describe('recovery code problems in words', () => {
  it('names the groups to look at again', () => {
    expect(describeRecoveryCodeProblem({ isValid: false, problem: 'group', groups: [2, 5] })).toBe(
      'Please look again at groups 2 and 5: it does not match your recovery sheet.',
    );
    expect(
      describeRecoveryCodeProblem({ isValid: false, problem: 'character', groups: [1, 3, 4] }),
    ).toBe(
      'Groups 1, 3 and 4 have a character that is not on a recovery sheet. Please check it against your sheet.',
    );
    expect(describeRecoveryCodeProblem({ isValid: true, code: 'X' })).toBeNull();
  });
});

/** Runs `unlock` with the network answering GET /api/encryption with `state`. */
async function unlockAfterAnswer(state: TEncryptionState, unlock: () => Promise<void>) {
  const fetch = vi.fn(async (url: string) => {
    expect(url).toBe('/api/encryption');
    return new Response(JSON.stringify(state), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  await unlock();
  expect(fetch).toHaveBeenCalledTimes(1);
}
