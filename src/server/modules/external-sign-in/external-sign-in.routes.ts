import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EXTERNAL_PROVIDERS, type TExternalProvider } from '../../../shared/domain/enums';
import { MESSAGES } from '../../../shared/domain/errors';
import {
  ZExternalFinishBody,
  ZExternalProviderParams,
  ZExternalStartBody,
  type TExternalLinkCodeResponse,
  type TExternalPending,
  type TExternalStartResponse,
  type TSignInMethods,
} from '../../../shared/schemas/external-sign-in';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import {
  getRequestContext,
  requireDevice,
  requireUser,
  setSessionCookie,
} from '../../plugins/request-context';
import { toUserResponse } from '../users/users.presenter';
import { perIpLimit } from '../../plugins/rate-limit';
import {
  completeAtCallback,
  findPendingSignIn,
  SignInRefused,
  startExternalSignIn,
} from './external-sign-in.service';
import { finishExternalSignIn } from './finish-sign-in.service';
import { emailLinkCode } from './link-code.service';
import { listSignInMethods, unlinkProvider } from './sign-in-methods.service';

/** The flow's id, for the callback and the steps after it. */
export const FLOW_COOKIE = 'memento_sign_in';
const FORM_BODY_LIMIT_BYTES = 16 * 1024;

function readProvider(value: unknown): TExternalProvider | null {
  return (EXTERNAL_PROVIDERS as readonly unknown[]).includes(value)
    ? (value as TExternalProvider)
    : null;
}

function readFlowToken(request: FastifyRequest): string | null {
  const cookie = request.cookies[FLOW_COOKIE];
  if (!cookie) return null;
  const unsigned = request.unsignCookie(cookie);
  return unsigned.valid && unsigned.value ? unsigned.value : null;
}

function landingWithError(landing: string, reason: string, provider: string | null): string {
  const search = new URLSearchParams({ signInError: reason });
  if (provider) search.set('provider', provider);
  return `${landing}?${search}`;
}

/** The flow's cookie; SameSite=None over https, so that Apple's cross-site form POST brings it back. */
function flowCookie(isHttps: boolean) {
  const sameSite = isHttps ? ({ sameSite: 'none', secure: true } as const) : null;
  return {
    set: (reply: FastifyReply, flowToken: string, expiresAt: Date) =>
      reply.setCookie(FLOW_COOKIE, flowToken, {
        path: '/',
        httpOnly: true,
        signed: true,
        expires: expiresAt,
        ...(sameSite ?? { sameSite: 'lax' }),
      }),
    clear: (reply: FastifyReply) => reply.clearCookie(FLOW_COOKIE, { path: '/', ...sameSite }),
  };
}

type FlowCookie = ReturnType<typeof flowCookie>;

/** What the provider sent back, from the query of a GET or the form of a POST. */
function readCallbackParams(request: FastifyRequest): URLSearchParams {
  const params = new URLSearchParams();
  for (const source of [request.query, request.body]) {
    if (source && typeof source === 'object') {
      for (const [key, value] of Object.entries(source)) {
        if (typeof value === 'string') params.set(key, value);
      }
    }
  }
  return params;
}

/** The provider's answer: a GET with the code in the query, or (Apple) a form POST. */
function callbackRoutes(
  deps: AppDeps,
  options: { rateLimit: ReturnType<typeof perIpLimit>; cookie: FlowCookie },
): FastifyPluginAsync {
  const { cookie } = options;
  /**
   * Browser routes answer with a redirect to a page that says what happened in plain words,
   * never with JSON or an error page; this catches what the handlers do not.
   */
  const redirectOnError = (
    error: Error,
    request: FastifyRequest,
    reply: FastifyReply,
  ): FastifyReply => {
    const provider = readProvider((request.params as { provider?: unknown }).provider);
    const isRateLimited = error instanceof AppError && error.code === 'RATE_LIMITED';
    if (!isRateLimited) request.log.error({ err: error }, 'external sign-in failed');
    cookie.clear(reply);
    return reply.redirect(
      landingWithError('/auth', isRateLimited ? 'rate_limited' : 'failed', provider),
    );
  };
  return async (callbacks) => {
    callbacks.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    callbacks.route({
      method: ['GET', 'POST'],
      url: '/auth/:provider/callback',
      config: { rateLimit: options.rateLimit },
      errorHandler: redirectOnError,
      handler: async (request, reply) => {
        const provider = readProvider((request.params as { provider?: unknown }).provider);
        const params = readCallbackParams(request);
        if (!provider) return reply.redirect(landingWithError('/auth', 'failed', null));
        try {
          const next = await completeAtCallback(deps, getRequestContext(request), {
            provider,
            flowToken: readFlowToken(request),
            params,
          });
          return reply.redirect(next);
        } catch (error) {
          if (!(error instanceof SignInRefused)) throw error;
          cookie.clear(reply);
          return reply.redirect(landingWithError(error.landing, error.reason, provider));
        }
      },
    });
  };
}

export const externalSignInRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const rateLimit = perIpLimit(deps.limits.login, MESSAGES.loginRateLimited);
    const cookie = flowCookie(deps.config.APP_URL.startsWith('https:'));

    // GET /auth/{provider}: the page binds the sign-in to this browser's device, then goes on.
    app.get('/auth/:provider', (request, reply) => {
      const provider = readProvider((request.params as { provider?: unknown }).provider);
      const isConfigured = provider !== null && deps.externalProviders.find(provider) !== undefined;
      return reply.redirect(isConfigured ? `/auth?signInWith=${provider}` : '/auth');
    });

    app.post(
      '/api/auth/:provider/start',
      {
        schema: { params: ZExternalProviderParams, body: ZExternalStartBody },
        config: { rateLimit },
      },
      async (request, reply): Promise<TExternalStartResponse> => {
        const started = await startExternalSignIn(deps, {
          provider: request.params.provider,
          intent: request.body.intent,
          device: requireDevice(request),
          user: request.user,
        });
        cookie.set(reply, started.flowToken, started.expiresAt);
        return { redirectUrl: started.redirectUrl };
      },
    );

    await app.register(callbackRoutes(deps, { rateLimit, cookie }));

    app.get('/api/auth/external/pending', async (request): Promise<TExternalPending> =>
      findPendingSignIn(deps, {
        flowToken: readFlowToken(request),
        device: requireDevice(request),
      }),
    );

    app.post(
      '/api/auth/external/link-code',
      { config: { rateLimit } },
      async (request, reply): Promise<TExternalLinkCodeResponse> => {
        const flowToken = readFlowToken(request);
        const { expiresAt, ...sent } = await emailLinkCode(deps, getRequestContext(request), {
          flowToken,
          device: requireDevice(request),
        });
        cookie.set(reply, flowToken!, expiresAt);
        return sent;
      },
    );

    app.post(
      '/api/auth/external/finish',
      { schema: { body: ZExternalFinishBody }, config: { rateLimit } },
      async (request, reply) => {
        const signedIn = await finishExternalSignIn(deps, getRequestContext(request), {
          flowToken: readFlowToken(request),
          device: requireDevice(request),
          body: request.body,
          previousSessionIdHash: request.sessionIdHash,
        });
        cookie.clear(reply);
        setSessionCookie(reply, deps.config, signedIn.token, signedIn.expiresAt);
        return toUserResponse(signedIn.user, signedIn.device);
      },
    );

    app.get('/api/auth/identities', async (request): Promise<TSignInMethods> =>
      listSignInMethods(deps, requireUser(request)),
    );

    app.delete(
      '/api/auth/identities/:provider',
      { schema: { params: ZExternalProviderParams } },
      async (request): Promise<TSignInMethods> =>
        unlinkProvider(deps, getRequestContext(request), {
          user: requireUser(request),
          provider: request.params.provider,
        }),
    );
  };
