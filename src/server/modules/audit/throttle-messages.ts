import { describeRetry, type TAttemptReservation } from './attempt-guard';

type TRefused = Extract<TAttemptReservation, { isAllowed: false }>;

/** What a refused attempt is told: why, in plain words, and the real wait. */
export function throttledMessage(refused: TRefused, now = new Date()): string {
  const wait = describeRetry(refused.retryAt, now);
  if (refused.reason === 'account') {
    return `Several wrong attempts were made for this account just now, so for safety please wait ${wait} and try again.`;
  }
  return `Too many attempts from this device. Please wait ${wait} and try again.`;
}
