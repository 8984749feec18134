// Kept apart from the request schemas so the sign-in page can show these without loading zod.

/**
 * Why a provider sign-in came back to /auth without signing in (`/auth?signInError=…`), in plain
 * words. `{provider}` is replaced by the provider's name.
 */
export const EXTERNAL_SIGN_IN_ERRORS = {
  cancelled: 'Sign-in with {provider} was cancelled, so you are not signed in. You can try again.',
  failed:
    'We could not confirm your sign-in with {provider}, so you are not signed in. Please try again.',
  expired:
    'Your sign-in with {provider} took too long or was started in another window. Please try again.',
  unavailable:
    'We could not reach {provider} just now. Please try again in a minute, or sign in with your username and password.',
  no_email:
    '{provider} did not share your email address, which Memento needs for your account. Please allow it, or create an account with a username and password.',
  taken:
    'This {provider} account is already linked to another Memento account. Please sign in to that account instead.',
  already_linked:
    'Your account already has a {provider} sign-in. Remove it first to link a different {provider} account.',
  rate_limited: 'Too many sign-in attempts. Please wait 15 minutes and try again.',
} as const;
export type TExternalSignInError = keyof typeof EXTERNAL_SIGN_IN_ERRORS;

export function describeExternalSignInError(code: string, providerName: string): string {
  const template =
    code in EXTERNAL_SIGN_IN_ERRORS
      ? EXTERNAL_SIGN_IN_ERRORS[code as TExternalSignInError]
      : EXTERNAL_SIGN_IN_ERRORS.failed;
  return template.replaceAll('{provider}', providerName);
}
