import { DEVICE_HEADER } from '@shared/domain/device';
import {
  TRANSFER_TOKEN_HEADER,
  type TTransferClaimed,
  type TTransferCreated,
  type TTransferCreatedWithPassword,
  type TTransferFailureBody,
  type TTransferSignal,
  type TTransferSignalBody,
} from '@shared/schemas/transfers';
import { apiRequest } from '@web/lib/api-client';
import { readApiError } from '@web/lib/api-error';
import { sendWithCredentials, type TMoveCredentials } from '@web/lib/auth-api';
import { getDeviceId, initDeviceId } from '@web/lib/device-id';

export function createTransferOffer(lookup: string, videoCount: number) {
  return apiRequest<TTransferCreated>('/api/transfers', {
    method: 'POST',
    body: { lookup, videoCount },
  });
}

/** The old device, signed out since the account moved on: the offer made with the password. */
export function createTransferOfferWithPassword(credentials: TMoveCredentials, lookup: string) {
  return sendWithCredentials(credentials, (fields) =>
    apiRequest<TTransferCreatedWithPassword>('/api/transfers/with-password', {
      method: 'POST',
      body: { ...fields, lookup },
    }),
  );
}

export function claimTransfer(lookup: string) {
  return apiRequest<TTransferClaimed>('/api/transfers/claim', { method: 'POST', body: { lookup } });
}

export function noteArrival(transferId: string, videoId: string) {
  return apiRequest(`/api/transfers/${transferId}/arrived`, { method: 'POST', body: { videoId } });
}

export function finishTransfer(transferId: string, videoIds: string[]) {
  return apiRequest(`/api/transfers/${transferId}/finish`, {
    method: 'POST',
    body: { videoIds },
  });
}

/** The old device asks with its transfer token: its session ends when the account moves. */
async function senderRequest<T>(
  token: string,
  path: string,
  method: 'GET' | 'PUT' | 'POST',
  body?: unknown,
): Promise<T> {
  const deviceId = getDeviceId() ?? (await initDeviceId());
  const response = await fetch(path, {
    method,
    headers: {
      Accept: 'application/json',
      [DEVICE_HEADER]: deviceId,
      [TRANSFER_TOKEN_HEADER]: token,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'include',
  });
  if (!response.ok) throw await readApiError(response);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** One side's handshake calls: the old device by token, the new one by its session. */
export interface TSignalling {
  read(): Promise<TTransferSignal>;
  write(body: TTransferSignalBody): Promise<TTransferSignal>;
  reportFailure(reason: TTransferFailureBody['reason']): Promise<void>;
}

export function senderSignalling(transferId: string, token: string): TSignalling {
  const path = `/api/transfers/${transferId}`;
  return {
    read: () => senderRequest(token, `${path}/signal`, 'GET'),
    write: (body) => senderRequest(token, `${path}/signal`, 'PUT', body),
    reportFailure: (reason) => senderRequest(token, `${path}/failure`, 'POST', { reason }),
  };
}

export function receiverSignalling(transferId: string): TSignalling {
  const path = `/api/transfers/${transferId}`;
  return {
    read: () => apiRequest(`${path}/signal`),
    write: (body) => apiRequest(`${path}/signal`, { method: 'PUT', body }),
    reportFailure: (reason) => apiRequest(`${path}/failure`, { method: 'POST', body: { reason } }),
  };
}
