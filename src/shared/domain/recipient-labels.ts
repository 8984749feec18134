import type { TRecipientCategory } from './enums';

/**
 * How each kind of recipient is named on screen. Kept apart from the recipients schema so a page
 * that only shows recipients does not load the validation library with it.
 */
export const RECIPIENT_CATEGORY_LABELS: Record<TRecipientCategory, string> = {
  next_of_kin: 'Next of kin',
  family: 'Family',
  friend: 'Friend',
};
