import type { QueryFunction } from '@tanstack/react-query';
import { DEVICE_HEADER } from '@shared/domain/device';
import { ApiError, isApiError, readApiError } from './api-error';
import { getDeviceId, initDeviceId, registerDevice } from './device-id';

export { ApiError, isApiError, describeError } from './api-error';

/** The network itself failed (offline, server down): no answer to read. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super("We couldn't reach Memento. Please check your internet connection and try again.", {
      cause,
    });
    this.name = 'NetworkError';
  }
}

/**
 * No answer, or the server said it cannot serve just now (its database or store away: 503).
 * Either way the request is worth making again later; nothing about it was wrong.
 */
export function isServerAway(error: unknown): boolean {
  return error instanceof NetworkError || (isApiError(error) && error.status === 503);
}

/** While set, requests wait for it before they leave (holdRequestsUntil). */
let requestsHeldUntil: Promise<void> | null = null;
/** The turn of the last held request to leave. */
let lastTurn: Promise<void> = Promise.resolve();

/**
 * Holds every API request until `released` settles. The app paints the page it can already draw
 * (the kept user, the device) before it asks for what fills it in, so the asking never competes
 * with the first drawing; on a real connection the answers arrive after that paint anyway.
 */
export function holdRequestsUntil(released: Promise<void>): void {
  const hold: Promise<void> = released.then(() => {
    if (requestsHeldUntil === hold) requestsHeldUntil = null;
  });
  requestsHeldUntil = hold;
}

/**
 * A held request leaves in a task of its own once released: each `fetch` costs the page a few
 * milliseconds, and the half-dozen a page asks for at its start, sent together, were one long
 * task just as the person could start to tap.
 */
async function waitIfHeld(): Promise<void> {
  if (!requestsHeldUntil) return;
  await requestsHeldUntil;
  const turn = lastTurn.then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  lastTurn = turn;
  await turn;
}

type THttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface TRequestOptions {
  method?: THttpMethod;
  /** JSON body for non-GET calls; `{}` is sent when there is none. */
  body?: unknown;
  /**
   * Builds the body from the device id, for payloads that carry it (login, register), so a retry
   * after the device is registered afresh sends the new id.
   */
  buildBody?: (deviceId: string) => unknown;
  signal?: AbortSignal;
}

async function send(path: string, deviceId: string, options: TRequestOptions): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', [DEVICE_HEADER]: deviceId };
  let body: string | undefined;
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify((options.buildBody ? options.buildBody(deviceId) : options.body) ?? {});
  }
  await waitIfHeld();
  try {
    return await fetch(path, {
      method,
      headers,
      body,
      credentials: 'include',
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new NetworkError(error);
  }
}

async function readBody<T>(response: Response): Promise<T> {
  const text = await response.text();
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    return text as T;
  }
}

/**
 * Every API call goes through here: device header, cookies, JSON. A non-OK answer becomes an
 * ApiError. When the server no longer knows this device, the browser registers afresh and the
 * call is retried once.
 */
export async function apiRequest<T>(path: string, options: TRequestOptions = {}): Promise<T> {
  const deviceId = getDeviceId() ?? (await initDeviceId());
  let response = await send(path, deviceId, options);
  if (!response.ok) {
    let error: ApiError = await readApiError(response);
    if (error.code === 'DEVICE_NOT_FOUND' || error.code === 'DEVICE_REQUIRED') {
      const freshId = await registerDevice();
      response = await send(path, freshId, options);
      if (response.ok) return readBody<T>(response);
      error = await readApiError(response);
    }
    throw error;
  }
  return readBody<T>(response);
}

/** The default query function uses the first query key as the URL. */
export const defaultQueryFn: QueryFunction = ({ queryKey, signal }) =>
  apiRequest<unknown>(String(queryKey[0]), { signal });
