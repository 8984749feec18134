import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZRenewPasswordWrapBody,
  ZTurnOnEncryptionBody,
  type TEncryptionState,
} from '../../../shared/schemas/encryption';
import type { AppDeps } from '../../deps';
import { perIpLimit } from '../../plugins/rate-limit';
import { getRequestContext, requireActor } from '../../plugins/request-context';
import { getEncryptionState, renewPasswordWrap, turnOnEncryption } from './encryption.service';

/** Enhanced encryption: the account's state and key wraps, and turning it on. */
export const encryptionRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/api/encryption', async (request): Promise<TEncryptionState> =>
      getEncryptionState(deps, requireActor(request)),
    );

    // The password is checked here: limited per address as sign-in is, besides the account's own count.
    app.post(
      '/api/encryption',
      {
        schema: { body: ZTurnOnEncryptionBody },
        config: { rateLimit: perIpLimit(deps.limits.login) },
      },
      async (request): Promise<TEncryptionState> => {
        const actor = requireActor(request);
        return turnOnEncryption(
          deps,
          { ...getRequestContext(request), deviceId: actor.deviceId },
          { actor, body: request.body },
        );
      },
    );

    // After a reset: the account key wrapped again under the new password, which is proved here.
    app.put(
      '/api/encryption/password-wrap',
      {
        schema: { body: ZRenewPasswordWrapBody },
        config: { rateLimit: perIpLimit(deps.limits.login) },
      },
      async (request): Promise<TEncryptionState> => {
        const actor = requireActor(request);
        return renewPasswordWrap(
          deps,
          { ...getRequestContext(request), deviceId: actor.deviceId },
          { actor, body: request.body },
        );
      },
    );
  };
