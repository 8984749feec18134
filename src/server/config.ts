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

export type TConfig = z.infer<typeof ZEnv>;

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function parseConfig(env: NodeJS.ProcessEnv = process.env): TConfig {
  const result = ZEnv.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  return result.data;
}
