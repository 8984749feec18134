// The app's shared dependencies as types only: a leaf that services and routes import, so none
// of them imports the composition root (app.ts) back. Each service names the part it uses with
// `Pick<AppDeps, ...>`.
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { TConfig } from './config';
import type { Db } from './db/client';
import type { Clock } from './lib/clock';
import type { DiskSpace } from './lib/disk-space';
import type { SecretBox } from './lib/secret-box';
import type { UrlSigner } from './lib/url-signer';
import type { PaymentProvider } from './modules/billing/payment-provider';
import type { VideoStore } from './modules/cloud/video-store';
import type { ExternalProviders } from './modules/external-sign-in/providers';
import type { MailQueue } from './modules/mail/mail.service';
import type { Limits } from './plugins/rate-limit';

export interface AppDeps {
  db: Db;
  config: TConfig;
  limits: Limits;
  mail: MailQueue;
  secretBox: SecretBox;
  urlSigner: UrlSigner;
  videoStore: VideoStore;
  /** Shared rate-limit state (REDIS_URL); null runs everything in this process. */
  redis: Redis | null;
  /** The size of upload parts (tests use smaller ones). */
  uploadPartBytes: number;
  /** The external sign-in providers this installation has set up. */
  externalProviders: ExternalProviders;
  log: FastifyBaseLogger;
  /** Whether DATA_DIR (or PostgreSQL's disk, by a write it refused) is full just now. */
  diskSpace: DiskSpace;
  /** Stripe, when billing is configured; null leaves plans to admins. */
  payments: PaymentProvider | null;
  /** What time it is, for rules that depend on it (a message's date); tests move it. */
  clock: Clock;
}
