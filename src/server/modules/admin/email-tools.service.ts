import { ONE_TIME_CODE_LENGTH } from '../../../shared/domain/codes';
import type {
  TConfirmEmailResult,
  TEmailSettings,
  TTestEmailResult,
  TVerifyEmailResult,
} from '../../../shared/schemas/admin';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { generateCode } from '../../lib/codes';
import { randomToken, sha256 } from '../../lib/crypto';
import { emailVerificationMail, testMail } from './admin.mails';
import type { SessionUser } from '../users/users.repository';
import {
  findEmailVerificationByToken,
  insertEmailVerification,
  listRecentEmailVerifications,
  markEmailVerified,
} from './admin.repository';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<AppDeps, 'clock' | 'config' | 'db' | 'mail'>;

const VERIFICATION_LIFETIME_MS = 24 * 3600_000;
const RECENT_VERIFICATIONS = 20;
const LINK_INVALID =
  'This confirmation link is not right or has expired. Please ask for a new one.';

function whereMailWent(deps: Deps, email: string): string {
  const { isSandbox, destination } = deps.mail.settings;
  return isSandbox
    ? `Sandbox mode: the message to ${email} was written to the outbox folder ${destination}.`
    : `The message to ${email} was sent. Please check the inbox.`;
}

/** The admin's tools report real delivery errors, so they send now instead of queueing. */
async function sendOrExplain(deps: Deps, mail: Parameters<AppDeps['mail']['sendNow']>[0]) {
  try {
    await deps.mail.sendNow(mail);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new AppError(
      'MAIL_FAILED',
      `The mail server did not accept the message: ${reason.slice(0, 200)}`,
    );
  }
}

export async function getEmailSettings(deps: Deps): Promise<TEmailSettings> {
  const { isSandbox, destination, from } = deps.mail.settings;
  const verifications = await listRecentEmailVerifications(deps.db, RECENT_VERIFICATIONS);
  return {
    mode: isSandbox ? 'sandbox' : 'smtp',
    destination,
    from,
    verifications: verifications.map((row) => ({
      email: row.email,
      requestedAt: row.requestedAt.toISOString(),
      verifiedAt: row.verifiedAt?.toISOString() ?? null,
    })),
  };
}

/** Sends a link; opening it marks the address verified. The token is in the URL fragment. */
export async function sendVerificationEmail(
  deps: Deps,
  input: { admin: SessionUser; email: string },
): Promise<TVerifyEmailResult> {
  const token = randomToken();
  const url = `${deps.config.APP_URL}/verify-email#token=${token}`;
  await sendOrExplain(deps, emailVerificationMail({ to: input.email, url }));
  await insertEmailVerification(deps.db, {
    email: input.email,
    tokenHash: sha256(token),
    requestedById: input.admin.id,
    expiresAt: new Date(deps.clock.now().getTime() + VERIFICATION_LIFETIME_MS),
  });
  return { success: true, message: whereMailWent(deps, input.email) };
}

export async function confirmEmail(deps: Deps, token: string): Promise<TConfirmEmailResult> {
  const row = await findEmailVerificationByToken(deps.db, sha256(token));
  const now = deps.clock.now();
  if (!row || (!row.verifiedAt && row.expiresAt.getTime() < now.getTime())) {
    throw new AppError('INVALID_CODE', LINK_INVALID);
  }
  if (!row.verifiedAt) await markEmailVerified(deps.db, row.id, now);
  return { email: row.email, message: `Thank you. ${row.email} is confirmed.` };
}

export async function sendTestEmail(deps: Deps, email: string): Promise<TTestEmailResult> {
  const code = generateCode(ONE_TIME_CODE_LENGTH);
  await sendOrExplain(deps, testMail({ to: email, code }));
  return { success: true, code, message: whereMailWent(deps, email) };
}
