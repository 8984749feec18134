import { z } from 'zod';

const optionalUrl = z.url().optional();
const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

/** DESIGN.md §4: every variable the server reads, parsed once at start-up. */
const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(1).max(65535).default(5000),
  HOST: z.string().min(1).default('127.0.0.1'),
  APP_URL: z.url().default('http://localhost:5000'),
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
  DONATION_URL: z.preprocess(emptyToUndefined, optionalUrl),
  SOURCE_CODE_URL: z.preprocess(emptyToUndefined, optionalUrl),
  ANALYTICS_SCRIPT_URL: z.preprocess(emptyToUndefined, optionalUrl),
  STRIPE_SECRET_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

/** S3 mode needs a bucket and credentials together; half a configuration is refused. */
const ZConfig = ZEnv.superRefine((env, ctx) => {
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

export type TConfig = z.infer<typeof ZEnv>;

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function parseConfig(env: NodeJS.ProcessEnv = process.env): TConfig {
  const result = ZConfig.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  return result.data;
}
