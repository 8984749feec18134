import type { FastifyRequest } from 'fastify';
import { MESSAGES } from '../../../shared/domain/errors';
import { requireDevice } from '../../plugins/request-context';
import type { UploadActor } from '../cloud/uploads.service';
import { pairingActor, resolvePairing } from '../pairing/pairing.service';
import { requirePrimaryOnPrimaryDevice } from './primary-device';

/**
 * Who may send a message to the cloud, asked again at every step of an upload: a phone paired
 * through import-from-mobile (its pairing token, checked on every call, reaches only its own
 * uploads), else the owner on their primary device. The owner's plan must include cloud sync;
 * uploads.service.ts checks that with the quota.
 */
export async function resolveUploadActor(
  deps: Parameters<typeof resolvePairing>[0],
  request: FastifyRequest,
): Promise<UploadActor> {
  const paired = await resolvePairing(deps, request);
  if (paired) return pairingActor(paired, request);
  return ownerUploadActor(request);
}

/** Starting an upload from the app: only the owner on their primary device. */
export function ownerUploadActor(request: FastifyRequest): UploadActor {
  const owner = requirePrimaryOnPrimaryDevice(request, MESSAGES.primaryOnlyRecord);
  return { owner, deviceId: requireDevice(request).id, pairingId: null };
}
