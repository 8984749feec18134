export declare const IDP_CLIENTS: {
  google: { clientId: string; clientSecret: string; label: string };
  apple: { clientId: string; teamId: string; keyId: string; label: string };
  oidc: { clientId: string; clientSecret: string; label: string };
};
export declare function subjectFor(email: string): string;
export interface TestIdentityProvider {
  issuer: string;
  stats: { appleSecretsAccepted: number; appleSecretsRefused: number; userInfoAnswered: number };
  env: Record<string, string>;
  stop(): Promise<void>;
}
export declare function startTestIdentityProvider(options: {
  appUrls: string[];
  issuerHost?: string;
  conformIdTokenClaims?: boolean;
  hasUserInfo?: boolean;
}): Promise<TestIdentityProvider>;
export interface ProviderPerson {
  email?: string;
  firstName?: string;
  lastName?: string;
  isEmailUnverified?: boolean;
  cancel?: boolean;
}
export type CallbackRequest =
  { method: 'GET'; url: string } | { method: 'POST'; url: string; body: URLSearchParams };
export declare function signInAtProvider(
  authorizationUrl: string,
  person: ProviderPerson,
): Promise<CallbackRequest>;
