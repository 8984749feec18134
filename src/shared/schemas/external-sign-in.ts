import { z } from 'zod';
import { EXTERNAL_PROVIDERS, type TExternalProvider } from '../domain/enums';
import { MESSAGES } from '../domain/errors';
import { ZPasswordProof } from './derived-password';

/** Sign-in with Google, Apple or an installation's own OpenID Connect provider. */
export const ZExternalProvider = z.enum(EXTERNAL_PROVIDERS, {
  error: 'This sign-in provider is not available',
});

export const ZExternalProviderParams = z.object({ provider: ZExternalProvider });

/** POST /api/auth/:provider/start: sign in (or sign up), or link to the signed-in account. */
export const ZExternalStartBody = z.object({
  intent: z.enum(['sign_in', 'link']).default('sign_in'),
});
export type TExternalStartBody = z.input<typeof ZExternalStartBody>;

export interface TExternalStartResponse {
  /** The provider's authorization URL, where the browser goes next. */
  redirectUrl: string;
}

/** A configured provider as the browser shows it: 'Continue with {name}'. */
export interface TExternalProviderInfo {
  id: TExternalProvider;
  name: string;
}

/**
 * GET /api/auth/external/pending: what is left to do after the provider answered.
 * - sign_in: nothing but to finish (the page does so at once);
 * - terms: a new account, once the Terms of Service are accepted;
 * - link: an account with this email exists, so its password (or a code emailed to it) is asked
 *   once before linking.
 */
export interface TExternalPending {
  provider: TExternalProvider;
  providerName: string;
  intent: 'sign_in' | 'link';
  step: 'sign_in' | 'terms' | 'link';
  email: string | null;
  firstName: string | null;
  /** step link: the existing account's username, when the provider vouched for the email. */
  username: string | null;
}

/** POST /api/auth/external/finish. */
export const ZExternalFinishBody = z.object({
  tosAccepted: z.literal(true, { error: MESSAGES.tosRequired }).optional(),
  tosAcceptedAt: z.iso.datetime({ error: MESSAGES.tosRequired }).optional(),
  password: z.string().max(256).optional(),
  /** step link: the password's proof, for an account with enhanced encryption on. */
  passwordProof: ZPasswordProof.optional(),
  /** step link, instead of the password: the code from POST /api/auth/external/link-code. */
  code: z.string().max(64).optional(),
});
export type TExternalFinishBody = z.input<typeof ZExternalFinishBody>;

/** POST /api/auth/external/link-code: a code was emailed to the matching account. */
export interface TExternalLinkCodeResponse {
  message: string;
  maskedEmail: string;
}

/** GET /api/auth/identities: the sign-in methods of the signed-in account. */
export interface TSignInMethods {
  hasPassword: boolean;
  identities: Array<{
    provider: TExternalProvider;
    providerName: string;
    email: string | null;
    linkedAt: string;
    lastSignInAt: string | null;
  }>;
}
