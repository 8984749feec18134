import type { FastifyReply, FastifyRequest } from 'fastify';
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
import {
  completeAtCallback,
  emailLinkCode,
  findPendingSignIn,
  finishExternalSignIn,
  listSignInMethods,
  SignInRefused,
  startExternalSignIn,
  unlinkProvider,
} from './external-sign-in.service';
import { perIpLimit } from '../../plugins/rate-limit';

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

export const externalSignInRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const isHttps = deps.config.APP_URL.startsWith('https:');
    const rateLimit = perIpLimit(deps.limits.login, MESSAGES.loginRateLimited);

    // SameSite=None over https, so that Apple's cross-site form POST brings it back.
    const setFlowCookie = (reply: FastifyReply, flowToken: string, expiresAt: Date) =>
      reply.setCookie(FLOW_COOKIE, flowToken, {
        path: '/',
        httpOnly: true,
        signed: true,
        expires: expiresAt,
        ...(isHttps ? { sameSite: 'none', secure: true } : { sameSite: 'lax' }),
      });

    const clearFlowCookie = (reply: FastifyReply) =>
      reply.clearCookie(FLOW_COOKIE, {
        path: '/',
        ...(isHttps ? { sameSite: 'none', secure: true } : {}),
      });

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
      clearFlowCookie(reply);
      return reply.redirect(
        landingWithError('/auth', isRateLimited ? 'rate_limited' : 'failed', provider),
      );
    };

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
        setFlowCookie(reply, started.flowToken, started.expiresAt);
        return { redirectUrl: started.redirectUrl };
      },
    );

    // The provider's answer: a GET with the code in the query, or (Apple) a form POST.
    await app.register(async (callbacks) => {
      callbacks.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT_BYTES },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      callbacks.route({
        method: ['GET', 'POST'],
        url: '/auth/:provider/callback',
        config: { rateLimit },
        errorHandler: redirectOnError,
        handler: async (request, reply) => {
          const rawProvider = (request.params as { provider?: unknown }).provider;
          const provider = readProvider(rawProvider);
          const params = new URLSearchParams();
          for (const source of [request.query, request.body]) {
            if (source && typeof source === 'object') {
              for (const [key, value] of Object.entries(source)) {
                if (typeof value === 'string') params.set(key, value);
              }
            }
          }
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
            clearFlowCookie(reply);
            return reply.redirect(landingWithError(error.landing, error.reason, provider));
          }
        },
      });
    });

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
        setFlowCookie(reply, flowToken!, expiresAt);
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
        clearFlowCookie(reply);
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
