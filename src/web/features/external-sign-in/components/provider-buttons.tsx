import { useState, type ReactNode } from 'react';
import { Apple, Building2 } from 'lucide-react';
import type { TExternalProvider } from '@shared/domain/enums';
import type { TExternalProviderInfo } from '@shared/schemas/external-sign-in';
import { Button } from '@web/components/ui/button';
import { useAppConfig } from '@web/lib/app-config';
import { goToProvider } from '../external-sign-in-api';

/** Google's 'G', drawn in its four colours, as its sign-in guidelines ask. */
function GoogleMark() {
  return (
    <svg viewBox="0 0 48 48" aria-hidden="true">
      <path
        fill="#EA4335"
        d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"
      />
      <path
        fill="#FBBC05"
        d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"
      />
    </svg>
  );
}

const MARKS: Record<TExternalProvider, () => ReactNode> = {
  google: GoogleMark,
  apple: () => <Apple aria-hidden="true" />,
  oidc: () => <Building2 aria-hidden="true" />,
};

export function ProviderMark({ provider }: { provider: TExternalProvider }) {
  const Mark = MARKS[provider];
  return <Mark />;
}

/** The providers this installation has set up; none until the configuration has loaded. */
export function useExternalProviders(): TExternalProviderInfo[] {
  return useAppConfig().data?.externalProviders ?? [];
}

/**
 * 'Continue with Google', 'Continue with Apple', 'Continue with {OIDC_NAME}': one button per
 * configured provider, then a divider before the username-and-password form.
 */
export function ProviderButtons({ dividerText }: { dividerText: string }) {
  const providers = useExternalProviders();
  const [leavingFor, setLeavingFor] = useState<TExternalProvider | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (providers.length === 0) return null;

  async function onContinue(provider: TExternalProvider) {
    setError(null);
    setLeavingFor(provider);
    try {
      await goToProvider(provider);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Please try again.');
      setLeavingFor(null);
    }
  }

  return (
    <div className="flex flex-col gap-5">
      <ul className="flex flex-col gap-3" aria-label="Sign in with another account">
        {providers.map(({ id, name }) => (
          <li key={id}>
            <Button
              variant="outline"
              className="min-h-14 w-full justify-start gap-3 border-input px-4 text-left text-foreground hover:bg-muted sm:justify-center sm:text-center"
              disabled={leavingFor !== null}
              onClick={() => void onContinue(id)}
            >
              <ProviderMark provider={id} />
              {leavingFor === id ? `Opening ${name}...` : `Continue with ${name}`}
            </Button>
          </li>
        ))}
      </ul>
      {error && (
        <p role="alert" className="text-base font-semibold text-destructive">
          {error}
        </p>
      )}
      <div className="flex items-center gap-4 text-muted-foreground">
        <span className="hidden h-px min-w-8 flex-1 bg-border sm:block" />
        <span className="flex-1 text-center text-base sm:flex-none">{dividerText}</span>
        <span className="hidden h-px min-w-8 flex-1 bg-border sm:block" />
      </div>
    </div>
  );
}
