import type { TUser } from '@shared/schemas/auth';
import type { TCreateRecipientBody, TRecipientCreated } from '@shared/schemas/recipients';
import { apiRequest } from '@web/lib/api-client';
import { readJson, removeItem, writeJson } from '@web/lib/browser-storage';

/** POST /api/recipients: during onboarding a retry updates the same next of kin. */
export function createRecipient(body: TCreateRecipientBody): Promise<TRecipientCreated> {
  return apiRequest('/api/recipients', { method: 'POST', body });
}

export function completeOnboarding(): Promise<{ ok: boolean; user: TUser }> {
  return apiRequest('/api/user/complete-onboarding', {
    method: 'POST',
    body: { onboardingCompletedAt: new Date().toISOString() },
  });
}

/**
 * The welcome toast is shown after the full page load that follows onboarding, so it travels
 * across the reload in session storage.
 */
const WELCOME_TOAST_KEY = 'memento.welcomeToast';

export interface TWelcomeToast {
  nextOfKinFirstName: string;
}

export function saveWelcomeToast(welcome: TWelcomeToast): void {
  writeJson(WELCOME_TOAST_KEY, welcome, 'session');
}

/** Reads the pending welcome once: it is removed as it is read. */
export function takeWelcomeToast(): TWelcomeToast | null {
  const welcome = readJson<TWelcomeToast>(WELCOME_TOAST_KEY, 'session');
  removeItem(WELCOME_TOAST_KEY, 'session');
  return welcome;
}
