/** The onboarding's steps and the next of kin's fields, which the wizard and its save share. */
/** The step titles, in order. */
export const ONBOARDING_STEPS = [
  'Why This Matters',
  'Next of Kin Registration',
  'Emergency Access Setup',
  'Review & Confirm',
] as const;
export const LAST_STEP = ONBOARDING_STEPS.length - 1;
/** 'Complete Setup' needs the three steps before the review done. */
export const STEPS_BEFORE_REVIEW = 3;

export const ONBOARDING_TEXT = {
  notAuthenticated: 'User not authenticated. Please log in again.',
  failed: 'Failed to complete onboarding',
} as const;

export const NEXT_OF_KIN_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phoneNumber',
  'relationship',
] as const;
export type TNextOfKinField = (typeof NEXT_OF_KIN_FIELDS)[number];

export function isNextOfKinField(name: string): name is TNextOfKinField {
  return (NEXT_OF_KIN_FIELDS as readonly string[]).includes(name);
}
