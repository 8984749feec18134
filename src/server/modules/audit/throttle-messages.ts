import { AppError } from '../../errors';
import { describeRetry, type AttemptReservation } from './attempt-guard';

type Refused = Extract<AttemptReservation, { isAllowed: false }>;

/** What a refused attempt is told: why, in plain words, and the real wait. */
export function throttledMessage(refused: Refused, now: Date): string {
  const wait = describeRetry(refused.retryAt, now);
  if (refused.reason === 'account') {
    return `Several wrong attempts were made for this account just now, so for safety please wait ${wait} and try again.`;
  }
  return `Too many attempts from this device. Please wait ${wait} and try again.`;
}

/** The way past the account-wide delay that only the person who reads the account's mail has. */
export const WAY_PAST_DELAY = {
  signIn:
    'If you keep being asked to wait, you can reset your password by email on this device: that does not wait.',
  resetCode:
    'If you keep being asked to wait, ask for a new code on this device: a code asked for here works here without waiting.',
} as const;

/**
 * The refusal to throw: a wait caused by others' wrong tries names the way past it, under its own
 * code so the page can offer it.
 */
export function throttledError(refused: Refused, wayPast: string, now: Date): AppError {
  if (refused.reason === 'account') {
    return new AppError('ACCOUNT_DELAYED', `${throttledMessage(refused, now)} ${wayPast}`);
  }
  return new AppError('RATE_LIMITED', throttledMessage(refused, now));
}
