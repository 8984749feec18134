import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ApiError, isServerAway, NetworkError } from '@web/lib/api-client';
import { adoptDeviceId, getDeviceId } from '@web/lib/device-id';
import {
  SendLaterError,
  needsAnotherTry,
  sendUntilDone,
  type TRunOutcome,
} from '@web/service-worker/background-send';
import {
  findSender,
  forgetSender,
  isSender,
  keepSender,
} from '@web/service-worker/background-sender';

const DEVICE_ID = '0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8';

describe('whom the service worker sends for', () => {
  it('keeps the owner and device the page handed over, and forgets them at sign-out', async () => {
    expect(await findSender()).toBeNull();
    await keepSender({ userId: 7, deviceId: DEVICE_ID });
    expect(await findSender()).toEqual({ userId: 7, deviceId: DEVICE_ID });
    await keepSender({ userId: 8, deviceId: DEVICE_ID });
    expect(await findSender()).toEqual({ userId: 8, deviceId: DEVICE_ID });
    await forgetSender();
    expect(await findSender()).toBeNull();
  });

  it('takes only a whole sender', () => {
    expect(isSender({ userId: 7, deviceId: DEVICE_ID })).toBe(true);
    expect(isSender({ userId: 0, deviceId: DEVICE_ID })).toBe(false);
    expect(isSender({ userId: '7', deviceId: DEVICE_ID })).toBe(false);
    expect(isSender({ userId: 7, deviceId: '' })).toBe(false);
    expect(isSender(null)).toBe(false);
  });
});

describe('the worker with no localStorage', () => {
  it('uses the device id handed over, and ignores one that is not an id', () => {
    // Unit files share one module graph (isolate: false): another may have set an id already.
    const before = getDeviceId();
    adoptDeviceId('not-a-device');
    expect(getDeviceId()).toBe(before);
    adoptDeviceId(DEVICE_ID);
    expect(getDeviceId()).toBe(DEVICE_ID);
  });
});

describe('when the browser runs the sync again', () => {
  const run = { wentOffline: false, wasBusy: false, unindexed: 0 };
  it('not when everything went', () => {
    expect(needsAnotherTry(run)).toBe(false);
  });
  it('when the connection dropped, another sender was busy, or a saved row did not go', () => {
    expect(needsAnotherTry({ ...run, wentOffline: true })).toBe(true);
    expect(needsAnotherTry({ ...run, wasBusy: true })).toBe(true);
    expect(needsAnotherTry({ ...run, unindexed: 1 })).toBe(true);
  });
});

describe('one wake of the worker', () => {
  const done: TRunOutcome = { wentOffline: false, wasBusy: false, unindexed: 0 };
  const offline: TRunOutcome = { ...done, wentOffline: true };

  function runs(...outcomes: Array<TRunOutcome | null>) {
    const waited: number[] = [];
    let tries = 0;
    const attempt = () => Promise.resolve(outcomes[Math.min(tries++, outcomes.length - 1)] ?? null);
    const wait = (ms: number) => {
      waited.push(ms);
      return Promise.resolve();
    };
    return { send: () => sendUntilDone(attempt, [10, 20, 30], wait), waited, tries: () => tries };
  }

  it('tries again within the wake while the connection that woke it carries no requests yet', async () => {
    const wake = runs(offline, offline, done);
    await expect(wake.send()).resolves.toBeUndefined();
    expect(wake.waited).toEqual([10, 20]);
    expect(wake.tries()).toBe(3);
  });

  it('leaves it to the browser once the tries within the wake are spent', async () => {
    const wake = runs(offline);
    await expect(wake.send()).rejects.toBeInstanceOf(SendLaterError);
    expect(wake.waited).toEqual([10, 20, 30]);
    expect(wake.tries()).toBe(4);
  });

  it('waits out another sender, and stops at once when nothing is left for it to do', async () => {
    const busy = runs({ ...done, wasBusy: true }, done);
    await expect(busy.send()).resolves.toBeUndefined();
    expect(busy.waited).toEqual([10]);
    const nothing = runs(null);
    await expect(nothing.send()).resolves.toBeUndefined();
    expect(nothing.tries()).toBe(1);
  });
});

describe('a server that is away', () => {
  it('is tried again later, as no answer at all is; a refusal is not', () => {
    expect(isServerAway(new NetworkError(new TypeError('Failed to fetch')))).toBe(true);
    expect(
      isServerAway(new ApiError('Memento is busy. Please try again.', 503, 'SERVICE_UNAVAILABLE')),
    ).toBe(true);
    expect(isServerAway(new ApiError('Please sign in.', 401, 'UNAUTHENTICATED'))).toBe(false);
    expect(isServerAway(new Error('a bug'))).toBe(false);
  });
});
