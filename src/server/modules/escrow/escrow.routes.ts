import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZEscrowOpenBody,
  ZRecoveryCancelLinkBody,
  type TEscrowOpened,
  type TKeyRecoveryState,
} from '../../../shared/schemas/escrow';
import type { AppDeps } from '../../deps';
import { AppError, REMOVED_MEANWHILE } from '../../errors';
import { perIpLimit } from '../../plugins/rate-limit';
import { getRequestContext, requireActor } from '../../plugins/request-context';
import { Permission, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import { findUserById } from '../users/users.repository';
import { openEscrow } from './escrow.service';
import {
  cancelKeyRecoveryByLink,
  cancelKeyRecoverySignedIn,
  getKeyRecovery,
  startKeyRecovery,
} from './key-recovery.service';

/** The owner's own row, with their waiting period: the session carries only what most ask. */
async function ownerOf(deps: AppDeps, actor: Actor) {
  requireAccess(actor, Permission.EncryptionRead);
  const owner = await findUserById(deps.db, actor.user.id);
  if (!owner) throw new AppError('NOT_FOUND', REMOVED_MEANWHILE);
  return owner;
}

/**
 * The next of kin's escrow of the account key: handed over after the legacy release, or to the
 * owner's own account once a key recovery's wait has ended.
 */
export const escrowRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    // An emergency code is checked here: limited per address as break-glass is.
    app.post(
      '/api/escrow/open',
      {
        schema: { body: ZEscrowOpenBody },
        config: { rateLimit: perIpLimit(deps.limits.emergency) },
      },
      async (request): Promise<TEscrowOpened> => {
        const actor = requireActor(request);
        return openEscrow(
          deps,
          { ...getRequestContext(request), deviceId: actor.deviceId },
          { actor, ...request.body },
        );
      },
    );

    app.get('/api/escrow/recovery', async (request): Promise<TKeyRecoveryState> => {
      return getKeyRecovery(deps, await ownerOf(deps, requireActor(request)));
    });

    // The card's proof is checked here too: limited per address as break-glass is.
    app.post(
      '/api/escrow/recovery',
      {
        schema: { body: ZEscrowOpenBody },
        config: { rateLimit: perIpLimit(deps.limits.emergency) },
      },
      async (request): Promise<TKeyRecoveryState> => {
        const actor = requireActor(request);
        return startKeyRecovery(
          deps,
          { ...getRequestContext(request), deviceId: actor.deviceId },
          { actor, ...request.body },
        );
      },
    );

    app.post('/api/escrow/recovery/cancel', async (request): Promise<TKeyRecoveryState> => {
      const owner = await ownerOf(deps, requireActor(request));
      return cancelKeyRecoverySignedIn(deps, getRequestContext(request), owner);
    });

    // From the owner's email, signed in or not: the token is the whole proof, so it is limited.
    app.post(
      '/api/escrow/recovery/cancel-link',
      {
        schema: { body: ZRecoveryCancelLinkBody },
        config: { rateLimit: perIpLimit(deps.limits.emergency) },
      },
      async (request) =>
        cancelKeyRecoveryByLink(deps, getRequestContext(request), request.body.token),
    );
  };
