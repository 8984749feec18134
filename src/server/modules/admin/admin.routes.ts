import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAdminDevicesQuery,
  ZAdminResetPasswordBody,
  ZAdminUsersQuery,
  ZConfirmEmailBody,
  ZDeleteUsersBody,
  ZDeviceIdParams,
  ZEmailToolBody,
  ZOverrideTierBody,
  ZSecondFactorBody,
  ZSetAdminBody,
  ZUserIdParams,
} from '../../../shared/schemas/admin';
import type { AppDeps } from '../../deps';
import { getRequestContext } from '../../plugins/request-context';
import { getAdminSession, requireAdmin, requireVerifiedAdmin } from './admin-access';
import { listDevices, removeDeviceAssociation } from './admin-devices.service';
import {
  deleteUsers,
  listPrimaryAccounts,
  listUsers,
  overrideTier,
  resetUserPassword,
  returnToBilling,
  setAdmin,
} from './admin-users.service';
import {
  confirmEmail,
  getEmailSettings,
  sendTestEmail,
  sendVerificationEmail,
} from './email-tools.service';
import {
  confirmEnrolment,
  getSecondFactorStatus,
  startEnrolment,
  verifySecondFactor,
} from './second-factor.service';
import { perIpLimit } from '../../plugins/rate-limit';
import { newPasswordGiven } from '../auth/derived-password';

/** Enrolment and verification: admins only, before the second factor is checked. */
const secondFactorRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', async (request) => {
      requireAdmin(request);
    });
    const rateLimit = perIpLimit(deps.limits.secondFactor);

    app.get('/api/admin/2fa', (request) => getSecondFactorStatus(deps, getAdminSession(request)));

    app.post('/api/admin/2fa/enrol', { config: { rateLimit } }, (request) =>
      startEnrolment(deps, requireAdmin(request)),
    );

    app.post(
      '/api/admin/2fa/confirm',
      { schema: { body: ZSecondFactorBody }, config: { rateLimit } },
      (request) =>
        confirmEnrolment(
          deps,
          getRequestContext(request),
          getAdminSession(request),
          request.body.code,
        ),
    );

    app.post(
      '/api/admin/2fa/verify',
      { schema: { body: ZSecondFactorBody }, config: { rateLimit } },
      (request) =>
        verifySecondFactor(
          deps,
          getRequestContext(request),
          getAdminSession(request),
          request.body.code,
        ),
    );
  };

/** Everything else an admin does: refused until this session's second factor is checked. */
const verifiedAdminRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', async (request) => {
      requireVerifiedAdmin(request);
    });
    const mailRateLimit = perIpLimit(deps.limits.adminMail);

    app.get('/api/admin/users', { schema: { querystring: ZAdminUsersQuery } }, (request) =>
      listUsers(deps, request.query),
    );
    app.get('/api/admin/primary-users', () => listPrimaryAccounts(deps));

    app.post(
      '/api/admin/users/:userId/override',
      { schema: { params: ZUserIdParams, body: ZOverrideTierBody } },
      (request) =>
        overrideTier(deps, getRequestContext(request), {
          admin: requireVerifiedAdmin(request),
          userId: request.params.userId,
          body: {
            tier: request.body.tier,
            isVIP: request.body.isVIP,
            reason: request.body.reason,
          },
        }),
    );

    app.post(
      '/api/admin/users/:userId/return-to-billing',
      { schema: { params: ZUserIdParams } },
      (request) =>
        returnToBilling(deps, getRequestContext(request), {
          admin: requireVerifiedAdmin(request),
          userId: request.params.userId,
        }),
    );

    app.post(
      '/api/admin/users/:userId/reset-password',
      { schema: { params: ZUserIdParams, body: ZAdminResetPasswordBody } },
      (request) =>
        resetUserPassword(deps, getRequestContext(request), {
          admin: requireVerifiedAdmin(request),
          userId: request.params.userId,
          newPassword: newPasswordGiven(request.body),
          reason: request.body.reason,
        }),
    );

    app.post(
      '/api/admin/users/:userId/admin',
      { schema: { params: ZUserIdParams, body: ZSetAdminBody } },
      (request) =>
        setAdmin(deps, getRequestContext(request), {
          admin: requireVerifiedAdmin(request),
          userId: request.params.userId,
          isAdmin: request.body.isAdmin,
        }),
    );

    app.delete('/api/admin/users', { schema: { body: ZDeleteUsersBody } }, (request) =>
      deleteUsers(deps, getRequestContext(request), {
        admin: requireVerifiedAdmin(request),
        ids: request.body.ids,
        includeRecipients: request.body.includeRecipients,
      }),
    );

    app.get('/api/admin/devices', { schema: { querystring: ZAdminDevicesQuery } }, (request) =>
      listDevices(deps, request.query),
    );

    app.delete('/api/admin/devices/:deviceId', { schema: { params: ZDeviceIdParams } }, (request) =>
      removeDeviceAssociation(deps, getRequestContext(request), {
        admin: requireVerifiedAdmin(request),
        deviceId: request.params.deviceId.toLowerCase(),
      }),
    );

    app.get('/api/admin/email', () => getEmailSettings(deps));

    app.post(
      '/api/verify-email',
      { schema: { body: ZEmailToolBody }, config: { rateLimit: mailRateLimit } },
      (request) =>
        sendVerificationEmail(deps, {
          admin: requireVerifiedAdmin(request),
          email: request.body.email,
        }),
    );

    app.post(
      '/api/test-email',
      { schema: { body: ZEmailToolBody }, config: { rateLimit: mailRateLimit } },
      (request) => sendTestEmail(deps, request.body.email),
    );
  };

export const adminRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(secondFactorRoutes(deps));
    await app.register(verifiedAdminRoutes(deps));

    // Opened from the verification mail by whoever holds that inbox; the token is the proof.
    app.post(
      '/api/verify-email/confirm',
      {
        schema: { body: ZConfirmEmailBody },
        config: { rateLimit: perIpLimit(deps.limits.emailConfirm) },
      },
      (request) => confirmEmail(deps, request.body.token),
    );
  };
