import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { CircleAlert, CircleCheck, KeyRound } from 'lucide-react';
import type { TExternalProvider } from '@shared/domain/enums';
import { describeExternalSignInError } from '@shared/domain/external-sign-in-errors';
import { BackHomeLink } from '@web/components/back-home-link';
import { Alert } from '@web/components/ui/alert';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { PageSpinner } from '@web/components/ui/spinner';
import { useExternalProviders } from '@web/features/external-sign-in/components/provider-buttons';
import {
  goToProvider,
  useSignInMethods,
  useUnlinkProvider,
} from '@web/features/external-sign-in/external-sign-in-api';
import { usePageTitle } from '@web/lib/use-page-title';
import { ProviderItem } from './provider-item';

/** Back from a provider: linked, or why not. */
function LinkOutcome({
  linked,
  signInError,
  providerName,
}: {
  /** The name of the provider just linked. */
  linked: string | null;
  signInError: string | null;
  providerName: string;
}) {
  return (
    <>
      {linked && (
        <Alert
          variant="success"
          title={`${linked} sign-in linked`}
          icon={<CircleCheck aria-hidden="true" />}
        >
          <p>Next time you can press &lsquo;Continue with {linked}&rsquo; to sign in.</p>
        </Alert>
      )}
      {signInError && (
        <Alert variant="destructive" title="Not linked" icon={<CircleAlert aria-hidden="true" />}>
          <p>{describeExternalSignInError(signInError, providerName)}</p>
        </Alert>
      )}
    </>
  );
}

/** The account's ways to sign in: its password, and each provider linked or not. */
export default function SignInMethodsPage() {
  usePageTitle('Sign-in Methods');
  const [searchParams] = useSearchParams();
  const providers = useExternalProviders();
  const methods = useSignInMethods();
  const unlink = useUnlinkProvider();
  const [confirming, setConfirming] = useState<TExternalProvider | null>(null);
  const [leaving, setLeaving] = useState<TExternalProvider | null>(null);
  const [linkError, setLinkError] = useState<string | null>(null);

  const nameOf = (id: string | null) =>
    providers.find((provider) => provider.id === id)?.name ?? 'your provider';
  const linked = searchParams.get('linked');
  const signInError = searchParams.get('signInError');

  async function onLink(provider: TExternalProvider) {
    setLinkError(null);
    setLeaving(provider);
    try {
      await goToProvider(provider, 'link');
    } catch (error) {
      setLinkError(error instanceof Error ? error.message : 'Please try again.');
      setLeaving(null);
    }
  }

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <BackHomeLink label="Back to home" />
      <Card>
        <CardHeader className="gap-2">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Sign-in Methods</h1>
          <p className="text-lg text-muted-foreground">
            The ways you can sign in to Memento on this device.
          </p>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          <LinkOutcome
            linked={linked && nameOf(linked)}
            signInError={signInError}
            providerName={nameOf(searchParams.get('provider'))}
          />
          {methods.isPending && <PageSpinner label="Loading your sign-in methods" />}
          {methods.isError && (
            <Alert
              variant="destructive"
              title="Not loaded"
              icon={<CircleAlert aria-hidden="true" />}
            >
              <p>{methods.error.message}</p>
            </Alert>
          )}
          {methods.data && (
            <ul className="flex flex-col gap-4" aria-label="Sign-in methods">
              <li className="flex items-start gap-4 rounded-xl border border-border p-4">
                <KeyRound className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
                <div className="flex flex-col gap-1">
                  <p className="text-lg font-semibold">Username and password</p>
                  <p className="text-muted-foreground">
                    {methods.data.hasPassword ? 'Set' : 'Not set yet'}
                  </p>
                </div>
              </li>
              {providers.map(({ id, name }) => {
                const identity = methods.data.identities.find((entry) => entry.provider === id);
                const isOnlyWay = !methods.data.hasPassword && methods.data.identities.length === 1;
                return (
                  <ProviderItem
                    key={id}
                    id={id}
                    name={name}
                    identity={identity}
                    isOnlyWay={isOnlyWay}
                    isConfirming={confirming === id}
                    onRemove={() => setConfirming(id)}
                    onKeep={() => setConfirming(null)}
                    unlink={unlink}
                    leaving={leaving}
                    isLeaving={leaving !== null}
                    onLink={() => void onLink(id)}
                  />
                );
              })}
            </ul>
          )}
          {linkError && (
            <p role="alert" className="font-semibold text-destructive">
              {linkError}
            </p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
