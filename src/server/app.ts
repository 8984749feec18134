import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { UPLOAD_PART_BYTES } from '../shared/schemas/cloud';
import type { TConfig } from './config';
import { openDatabase, type Database } from './db/client';
import { serializeError } from './db/database-errors';
import { loadSessionSecret } from './lib/secrets';
import { SecretBox } from './lib/secret-box';
import { UrlSigner } from './lib/url-signer';
import { connectRedis } from './lib/redis';
import { DiskSpace } from './lib/disk-space';
import { systemClock, type Clock } from './lib/clock';
import { adminRoutes } from './modules/admin/admin.routes';
import { billingRoutes } from './modules/billing/billing.routes';
import { PaymentProvider } from './modules/billing/payment-provider';
import { cloudRoutes } from './modules/cloud/cloud.routes';
import { pairingRoutes } from './modules/pairing/pairing.routes';
import { transferRoutes } from './modules/transfers/transfers.routes';
import { careHomeRoutes } from './modules/care-homes/care-homes.routes';
import { careHomeResidentRoutes } from './modules/care-homes/residents.routes';
import { careHomeStaffRoutes } from './modules/care-homes/staff.routes';
import { careTeamRoutes } from './modules/care-homes/care-team.routes';
import { stationRecordingRoutes } from './modules/care-homes/station-recording.routes';
import { stationSealingRoutes } from './modules/care-homes/station-sealing.routes';
import { stationSignInRoutes } from './modules/care-homes/station-sign-in.routes';
import { supportRoutes } from './modules/support/support.routes';
import { familyPageRoutes } from './modules/care-homes/family-page.routes';
import { createVideoStore } from './modules/cloud/create-video-store';
import { wordEarlierAuditEntries } from './modules/audit/audit.repository';
import { auditRoutes } from './modules/audit/audit.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { passwordRoutes } from './modules/auth/passwords.routes';
import { emergencyRoutes } from './modules/emergency/emergency.routes';
import { escrowRoutes } from './modules/escrow/escrow.routes';
import { encryptionRoutes } from './modules/encryption/encryption.routes';
import { onboardingRoutes } from './modules/onboarding/onboarding.routes';
import { recipientRoutes } from './modules/recipients/recipients.routes';
import { recipientHomeRoutes } from './modules/recipients/recipient-home.routes';
import { promptRoutes } from './modules/prompts/prompts.routes';
import { videoRoutes } from './modules/videos/videos.routes';
import { deviceRoutes } from './modules/devices/devices.routes';
import { externalSignInRoutes } from './modules/external-sign-in/external-sign-in.routes';
import { ExternalProviders } from './modules/external-sign-in/providers';
import { systemRoutes } from './modules/system/system.routes';
import { createJobs, type AppJobs } from './modules/jobs/jobs';
import { legacyRoutes } from './modules/legacy/legacy.routes';
import { MailQueue } from './modules/mail/mail.service';
import { createMailTransport } from './modules/mail/mail.transport';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerErrorHandler } from './plugins/error-handler';
import { registerRequestContext } from './plugins/request-context';
import { FIRST_PAINT_SCRIPT_HASH, registerWebApp } from './plugins/web-app';
import { toPublicConfig } from './modules/system/public-config';
import type { AppDeps } from './deps';
import { DEFAULT_LIMITS, registerRateLimit, type Limits } from './plugins/rate-limit';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: AppJobs;
  }
}

export interface BuildAppOptions {
  config: TConfig;
  /** An open database; when absent one is opened (and migrated) from the configuration. */
  database?: Database;
  limits?: Partial<Limits>;
  webDir?: string;
  uploadPartBytes?: number;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** What time it is for requests that depend on it (tests move it forward). */
  clock?: Clock;
  /** Whether the job schedule polls by itself (tests run it with their own clock). */
  startSchedule?: boolean;
}

const BODY_LIMIT_BYTES = 64 * 1024;

/** The app, built in the order a reader follows: its parts, the plugins, the routes, the timed work. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const database =
    options.database ??
    (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }));
  if (!options.database) await database.migrate();

  const app = createFastify(config, options.logStream);
  database.onBackgroundError((error) =>
    app.log.warn({ err: error }, 'database connection lost; the next query reconnects'),
  );
  const sessionSecret = loadSessionSecret(config.SESSION_SECRET, config.DATA_DIR);
  const deps = await makeDeps(app, database, sessionSecret, options);
  registerErrorHandler(app, deps.diskSpace);
  await registerPlugins(app, deps, sessionSecret);
  await registerRoutes(app, deps, options.webDir);
  startTimedWork(app, deps, database, options);
  return app;
}

/** Fastify with its logger (no cookies, no signatures, no statement values) and zod schemas. */
function createFastify(config: TConfig, logStream: BuildAppOptions['logStream']): FastifyInstance {
  const app = Fastify({
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: ['req.headers.cookie', 'req.headers.authorization'],
            // Signed playback URLs carry their signature in the query: never log it.
            serializers: {
              req: (request: { method: string; url: string }) => ({
                method: request.method,
                url: request.url.replace(/([?&]sig=)[^&]*/, '$1[redacted]'),
              }),
              // A failed statement's values (emails, names, codes) never reach the log.
              err: serializeError,
            },
            ...(logStream ? { stream: logStream } : {}),
            // `npm run dev`: readable, coloured lines; JSON everywhere else.
            ...(config.NODE_ENV === 'development'
              ? {
                  transport: {
                    target: 'pino-pretty',
                    options: { colorize: true, translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
                  },
                }
              : {}),
          },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  return app;
}

/** What services use, made once: the mail queue, the stores, the providers, the clock. */
async function makeDeps(
  app: FastifyInstance,
  database: Database,
  sessionSecret: string,
  options: BuildAppOptions,
): Promise<AppDeps> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const diskSpace = new DiskSpace(config.DATA_DIR, {
    hasExternalDatabase: Boolean(config.DATABASE_URL),
    clock,
  });
  const redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL, app.log) : null;
  const secretBox = new SecretBox(sessionSecret);
  const mail = new MailQueue(database.db, createMailTransport(config, clock), {
    from: config.MAIL_FROM,
    log: app.log,
    secretBox,
    clock,
  });
  return {
    db: database.db,
    config,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    mail,
    secretBox,
    urlSigner: new UrlSigner(sessionSecret),
    videoStore: await createVideoStore(config),
    uploadPartBytes: options.uploadPartBytes ?? UPLOAD_PART_BYTES,
    externalProviders: new ExternalProviders(config),
    redis,
    log: app.log,
    diskSpace,
    payments: await PaymentProvider.create(config),
    clock,
  };
}

/** Security headers, compression, cookies, rate limits and the request context, before any route. */
async function registerPlugins(
  app: FastifyInstance,
  deps: AppDeps,
  sessionSecret: string,
): Promise<void> {
  const { config, redis, clock } = deps;
  const isHttps = config.APP_URL.startsWith('https:');
  // S3 mode: the browser sends parts to the store and plays presigned URLs from it.
  const storeOrigins = config.S3_ENDPOINT ? [new URL(config.S3_ENDPOINT).origin] : [];
  const appOrigin = new URL(config.APP_URL).origin;
  const allowedOrigins = new Set([appOrigin]);
  if (config.NODE_ENV === 'development') allowedOrigins.add('http://localhost:5173');

  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'script-src': [
          "'self'",
          FIRST_PAINT_SCRIPT_HASH,
          ...(config.ANALYTICS_SCRIPT_URL ? [new URL(config.ANALYTICS_SCRIPT_URL).origin] : []),
        ],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'media-src': ["'self'", 'blob:', ...storeOrigins],
        'connect-src': ["'self'", ...storeOrigins],
        'upgrade-insecure-requests': isHttps ? [] : null,
      },
    },
    strictTransportSecurity: isHttps,
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyCompress, { threshold: 1024 });
  await app.register(fastifyCookie, { secret: sessionSecret });
  await registerRateLimit(app, { redis, log: app.log, clock });

  registerRequestContext(app, {
    db: deps.db,
    config,
    allowedOrigins,
    publicOrigin: appOrigin,
    clock,
  });
}

/** Every area's routes, then the web app's pages for everything else. */
async function registerRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  webDir: string | undefined,
): Promise<void> {
  await app.register(systemRoutes(deps));
  await app.register(deviceRoutes(deps));
  await app.register(authRoutes(deps));
  await app.register(passwordRoutes(deps));
  await app.register(externalSignInRoutes(deps));
  await app.register(recipientRoutes(deps));
  await app.register(recipientHomeRoutes(deps));
  await app.register(promptRoutes(deps));
  await app.register(videoRoutes(deps));
  await app.register(cloudRoutes(deps));
  await app.register(pairingRoutes(deps));
  await app.register(transferRoutes(deps));
  await app.register(onboardingRoutes(deps));
  await app.register(emergencyRoutes(deps));
  await app.register(escrowRoutes(deps));
  await app.register(auditRoutes);
  await app.register(adminRoutes(deps));
  await app.register(billingRoutes(deps));
  await app.register(legacyRoutes(deps));
  await app.register(encryptionRoutes(deps));
  await app.register(careHomeRoutes(deps));
  await app.register(careHomeStaffRoutes(deps));
  await app.register(careHomeResidentRoutes(deps));
  await app.register(careTeamRoutes(deps));
  await app.register(stationSignInRoutes(deps));
  await app.register(stationRecordingRoutes(deps));
  await app.register(stationSealingRoutes(deps));
  await app.register(supportRoutes(deps));
  await app.register(familyPageRoutes(deps));
  await registerWebApp(app, {
    webDir,
    publicConfig: toPublicConfig(deps.config, deps.externalProviders.list()),
  });
}

/**
 * The timed work: the schedule kept in the database (its jobs are listed in modules/jobs), the
 * mail queue, and the wording of events from before migration 0010, started once the app is
 * ready and stopped with it.
 */
function startTimedWork(
  app: FastifyInstance,
  deps: AppDeps,
  database: Database,
  options: BuildAppOptions,
): void {
  const { schedule, jobs } = createJobs(deps, app.log);
  app.decorate('jobs', jobs);

  const closing = new AbortController();
  let wording: Promise<unknown> = Promise.resolve();
  app.addHook('onReady', async () => {
    deps.mail.start();
    if (options.startSchedule !== false) schedule.start();
    wording = wordEarlierAuditEntries(database.db, { signal: closing.signal })
      .then((count) => count > 0 && app.log.info({ count }, 'earlier audit events worded'))
      .catch((error: unknown) => app.log.warn({ err: error }, 'wording audit events failed'));
  });
  app.addHook('onClose', async () => {
    closing.abort();
    await wording;
    await schedule.stop();
    deps.redis?.disconnect();
    await deps.mail.stop();
    if (!options.database) await database.close();
  });
}
