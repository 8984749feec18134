/**
 * When a recipient may watch a message: at once, from a date, or once the owner's legacy is
 * released (after the next of kin asks and the owner's waiting period passes unanswered).
 */
export const RELEASE_RULES = ['now', 'date', 'legacy'] as const;
export type TReleaseRule = (typeof RELEASE_RULES)[number];

export interface TRelease {
  rule: TReleaseRule;
  /** For 'date': the moment it opens (the chosen day's start in the owner's time zone), ISO. */
  at: string | null;
}

/** The owner's waiting period between a next of kin's request and the release, in days. */
export const LEGACY_WAITING_DAYS = { min: 1, max: 90, default: 7 } as const;

/** The optional inactivity check: months without signing in before reminders start. */
export const INACTIVITY_MONTHS = [3, 6, 12] as const;
export type TInactivityMonths = (typeof INACTIVITY_MONTHS)[number];

export const LEGACY_MESSAGES = {
  chooseDate: 'Please choose the date it opens',
  dateInFuture: 'Please choose a date after today',
  waitingDays: `Please choose between ${LEGACY_WAITING_DAYS.min} and ${LEGACY_WAITING_DAYS.max} days`,
  inactivityMonths: 'Please choose 3, 6 or 12 months, or off',
  codeRequired: 'Please enter the emergency code',
  wrongCode: 'That emergency code is not right. Please check it and try again.',
  nextOfKinOnly: 'Only the next of kin can ask to release a legacy.',
  alreadyWaiting: 'A release has already been asked for and is waiting.',
  alreadyReleased: 'This legacy has already been released.',
  nothingWaiting: 'There is no release waiting to be cancelled.',
  linkUsed:
    'This link has already been used or has expired. You can cancel from Memento on any of your devices.',
  nothingReleased: 'Your legacy has not been released, so there is nothing to end.',
  nextOfKinNotFound: 'That next of kin was not found.',
  chooseAsking: 'Please say whether they may ask',
  askAgainAfterCancel: (owner: string, day: string) =>
    `${owner} cancelled the last request. You can ask again on ${day}.`,
  askAgainAfterEnd: (owner: string, day: string) =>
    `${owner} ended the last release. You can ask again on ${day}.`,
  stopped: (owner: string) =>
    `${owner} has turned off requests from you to release their legacy. If you are worried about ${owner}, please get in touch with them or with the people who care for them.`,
} as const;

/** After a cancelled or ended request, its asker waits this long, or the owner's period if longer. */
export const ASK_AGAIN_MIN_DAYS = 30;
