import { z } from 'zod';
import { ZIceServer } from '../shared/schemas/transfers';

const optionalUrl = z.url().optional();
const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
/** A JSON setting; text that is not JSON is passed on for the schema to refuse plainly. */
const parseJsonSetting = (value: unknown) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
};

/** Every variable the server reads, parsed once at start-up, so a wrong one stops the start. */
const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(1).max(65535).default(5000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Unset: this machine at PORT, so a server started on another port still accepts its pages. */
  APP_URL: z.preprocess(emptyToUndefined, optionalUrl),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.preprocess(emptyToUndefined, optionalUrl),
  SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(32).optional()),
  SMTP_URL: z.preprocess(emptyToUndefined, optionalUrl),
  MAIL_FROM: z.string().default('Memento <no-reply@memento.local>'),
  REDIS_URL: z.preprocess(emptyToUndefined, optionalUrl),
  S3_ENDPOINT: z.preprocess(emptyToUndefined, optionalUrl),
  S3_BUCKET: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email().toLowerCase().optional()),
  /** Where care homes' support requests are emailed; unset: every admin's own address. */
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.email().toLowerCase().optional()),
  DONATION_URL: z.preprocess(emptyToUndefined, optionalUrl),
  SOURCE_CODE_URL: z.preprocess(emptyToUndefined, optionalUrl),
  ANALYTICS_SCRIPT_URL: z.preprocess(emptyToUndefined, optionalUrl),
  // Billing: on only when the key, webhook secret and three prices are set.
  STRIPE_SECRET_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  STRIPE_WEBHOOK_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  STRIPE_PRICE_STANDARD: z.preprocess(emptyToUndefined, z.string().optional()),
  STRIPE_PRICE_PREMIUM: z.preprocess(emptyToUndefined, z.string().optional()),
  STRIPE_PRICE_PROFESSIONAL: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Another Stripe API host (a local stand-in in tests): its protocol, host and port are used. */
  STRIPE_API_BASE: z.preprocess(emptyToUndefined, optionalUrl),
  // External sign-in: a provider's button shows only when it is set up.
  GOOGLE_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  GOOGLE_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  GOOGLE_ISSUER: z.preprocess(emptyToUndefined, z.url().default('https://accounts.google.com')),
  APPLE_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  APPLE_TEAM_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  APPLE_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  /** The .p8 key's PEM text; '\n' written as two characters (one-line env files) is accepted. */
  APPLE_PRIVATE_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((pem) => pem.replaceAll('\\n', '\n'))
      .refine((pem) => pem.includes('-----BEGIN PRIVATE KEY-----'), {
        message: 'APPLE_PRIVATE_KEY must be the PEM text of the .p8 key from Apple',
      })
      .optional(),
  ),
  APPLE_ISSUER: z.preprocess(emptyToUndefined, z.url().default('https://appleid.apple.com')),
  OIDC_ISSUER: z.preprocess(emptyToUndefined, optionalUrl),
  OIDC_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  OIDC_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  OIDC_NAME: z.preprocess(emptyToUndefined, z.string().trim().max(40).optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /**
   * Offers owners on a paid plan enhanced encryption (cloud copies sealed in their browser);
   * `false` hides the offer, and accounts already on stay on.
   */
  ENHANCED_ENCRYPTION: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  /**
   * STUN/TURN servers (a JSON array, as RTCPeerConnection takes them) for moving messages tablet
   * to tablet across networks; none means the two devices must share a network.
   */
  WEBRTC_ICE_SERVERS: z.preprocess(
    (value) => parseJsonSetting(emptyToUndefined(value)),
    z
      .array(ZIceServer, { error: 'WEBRTC_ICE_SERVERS must be a JSON array of ICE servers' })
      .default([]),
  ),
});

/** Each external provider's settings, which must come all together or not at all. */
const PROVIDER_SETTINGS = {
  google: ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
  apple: ['APPLE_CLIENT_ID', 'APPLE_TEAM_ID', 'APPLE_KEY_ID', 'APPLE_PRIVATE_KEY'],
  oidc: ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_NAME'],
} as const;

/** Billing needs all of these; with none of them the plans say 'Coming Soon'. */
const BILLING_SETTINGS = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_PRICE_STANDARD',
  'STRIPE_PRICE_PREMIUM',
  'STRIPE_PRICE_PROFESSIONAL',
] as const;

/** Whether payments are taken: every billing setting is present. */
export function isBillingEnabled(config: Pick<TConfig, (typeof BILLING_SETTINGS)[number]>) {
  return BILLING_SETTINGS.every((key) => Boolean(config[key]));
}

/** Half a configuration is refused: S3 mode, billing, and each external provider. */
const ZConfig = ZEnv.superRefine((env, ctx) => {
  if (BILLING_SETTINGS.some((key) => env[key]) && !isBillingEnabled(env)) {
    for (const key of BILLING_SETTINGS) {
      if (!env[key]) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `billing needs ${BILLING_SETTINGS.join(', ')} together`,
        });
      }
    }
  }
  for (const keys of Object.values(PROVIDER_SETTINGS)) {
    if (keys.some((key) => env[key]) && !keys.every((key) => env[key])) {
      for (const key of keys) {
        if (!env[key]) {
          ctx.addIssue({ code: 'custom', path: [key], message: `set ${keys.join(', ')} together` });
        }
      }
    }
  }
  const s3 = [env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY];
  if (s3.some(Boolean) && !s3.every(Boolean)) {
    for (const key of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!env[key]) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'S3 mode needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together',
        });
      }
    }
  }
});

/** The configuration as the server uses it: every default filled in. */
export type TConfig = Omit<z.infer<typeof ZEnv>, 'APP_URL'> & { APP_URL: string };

export class ConfigError extends Error {}

/**
 * Variables read under an earlier name when the new one is unset, so an installation keeps what
 * its operator chose: ENHANCED_ENCRYPTION was ENHANCED_ENCRYPTION_PREVIEW while it was a preview.
 */
function withOldNames(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ENHANCED_ENCRYPTION, ENHANCED_ENCRYPTION_PREVIEW } = env;
  if (ENHANCED_ENCRYPTION !== undefined || ENHANCED_ENCRYPTION_PREVIEW === undefined) return env;
  return { ...env, ENHANCED_ENCRYPTION: ENHANCED_ENCRYPTION_PREVIEW };
}

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function parseConfig(env: NodeJS.ProcessEnv = process.env): TConfig {
  const result = ZConfig.safeParse(withOldNames(env));
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const { APP_URL, ...config } = result.data;
  return { ...config, APP_URL: APP_URL ?? `http://localhost:${config.PORT}` };
}
