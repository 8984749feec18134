import type { FastifyRequest } from 'fastify';
import { PAIRING_HEADER, PAIRING_MESSAGES } from '../../../shared/schemas/pairing';
import { AppError } from '../../errors';
import { requireDevice } from '../../plugins/request-context';
import { pairedPhoneActor, type Actor } from '../access/actor';
import type { PairingRow } from './pairing.repository';
import { resolvePairing } from './pairing.service';

/**
 * The phone asking through its pairing token (checked on every call), as the access rules take
 * it; null when the request carries no token. A refused token is UNAUTHENTICATED.
 */
export async function findPairedPhone(
  deps: Parameters<typeof resolvePairing>[0],
  request: FastifyRequest,
): Promise<{ pairing: PairingRow; actor: Actor } | null> {
  const resolved = await resolvePairing(deps, request.headers[PAIRING_HEADER]);
  if (!resolved) return null;
  const { pairing, owner } = resolved;
  return { pairing, actor: pairedPhoneActor(owner, requireDevice(request), pairing.id) };
}

/** The paired phone asking, or UNAUTHENTICATED: the phone's routes take nothing else. */
export async function requirePairedPhone(
  deps: Parameters<typeof resolvePairing>[0],
  request: FastifyRequest,
): Promise<{ pairing: PairingRow; actor: Actor }> {
  const phone = await findPairedPhone(deps, request);
  if (!phone) throw new AppError('UNAUTHENTICATED', PAIRING_MESSAGES.ended);
  return phone;
}
