import { z } from 'zod';

/** POST /api/user/complete-onboarding. */
export const ZCompleteOnboardingBody = z.object({
  onboardingCompletedAt: z.iso.datetime().optional(),
});
