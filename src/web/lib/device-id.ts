import { isValidDeviceId, STORAGE_KEYS } from '@shared/domain/device';
import type { TDeviceRegisterResponse } from '@shared/schemas/devices';
import { readApiError } from './api-error';
import { readItem, removeItem, writeItem } from './browser-storage';
import { buildFingerprint } from './fingerprint';

const KEY = STORAGE_KEYS.deviceId;
const REGISTER_FAILED = 'Failed to register device with server';

let currentDeviceId: string | null = null;
let pendingRegistration: Promise<string> | null = null;
const listeners = new Set<() => void>();

function publish(deviceId: string | null) {
  currentDeviceId = deviceId;
  for (const listener of listeners) listener();
}

/**
 * Local storage first; else session storage, copied back to local; anything that is not a UUID
 * is cleared from both.
 */
export function readStoredDeviceId(): string | null {
  let stored = readItem(KEY, 'local');
  if (!stored) {
    stored = readItem(KEY, 'session');
    if (stored) writeItem(KEY, stored, 'local');
  }
  if (stored && !isValidDeviceId(stored)) {
    removeItem(KEY, 'local');
    removeItem(KEY, 'session');
    return null;
  }
  return stored;
}

/** Keeps the id in both stores so a cleared one can be restored from the other. */
export function saveDeviceId(deviceId: string): void {
  writeItem(KEY, deviceId, 'local');
  writeItem(KEY, deviceId, 'session');
  publish(deviceId);
}

export function getDeviceId(): string | null {
  return currentDeviceId;
}

export function subscribeToDeviceId(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function requestNewDeviceId(): Promise<string> {
  let response: Response;
  try {
    response = await fetch('/api/device/register', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ fingerprint: buildFingerprint() }),
    });
  } catch (error) {
    throw new Error(REGISTER_FAILED, { cause: error });
  }
  if (!response.ok) throw await readApiError(response);
  const body = (await response.json().catch(() => null)) as TDeviceRegisterResponse | null;
  if (!body || !isValidDeviceId(body.deviceId)) throw new Error(REGISTER_FAILED);
  saveDeviceId(body.deviceId);
  return body.deviceId;
}

/** Registers this browser as a new device. Concurrent callers share one registration. */
export function registerDevice(): Promise<string> {
  pendingRegistration ??= requestNewDeviceId().finally(() => {
    pendingRegistration = null;
  });
  return pendingRegistration;
}

/**
 * Takes up an id handed over by the page, kept nowhere else: the service worker, which sends
 * messages after the tab closes, has no localStorage to read it from.
 */
export function adoptDeviceId(deviceId: string): void {
  if (isValidDeviceId(deviceId) && currentDeviceId !== deviceId) publish(deviceId);
}

/**
 * Takes up a valid stored id at once, so a returning browser's first render already has it;
 * answers whether there was one.
 */
export function adoptStoredDeviceId(): boolean {
  const stored = readStoredDeviceId();
  if (stored && currentDeviceId !== stored) publish(stored);
  return stored !== null;
}

/** The stored id when there is a valid one, else a freshly registered one. */
export async function initDeviceId(): Promise<string> {
  const stored = readStoredDeviceId();
  if (stored) {
    publish(stored);
    return stored;
  }
  return registerDevice();
}
