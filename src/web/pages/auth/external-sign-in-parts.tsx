import { Suspense } from 'react';
import type { TLoginForm } from '@shared/schemas/auth';
import { Spinner } from '@web/components/ui/spinner';
import { ExternalSignInNotice } from '@web/features/external-sign-in/components/external-sign-in-notice';
import { ProviderButtons } from '@web/features/external-sign-in/components/provider-buttons';
import { lazyNamed } from '@web/lib/lazy-named';
import { isContinuingSignIn, type TView } from './auth-views';

// Only after a provider sent the person back here: its terms dialog stays off the first load.
const ExternalSignInContinuation = lazyNamed(
  () => import('@web/features/external-sign-in/components/external-sign-in-continuation'),
  'ExternalSignInContinuation',
);

interface ExternalSignInPartsProps {
  view: TView;
  searchParams: URLSearchParams;
  onDeviceError: (error: Error, credentials: TLoginForm | null) => void;
  onCancel: () => void;
}

/** Signing in with a provider: its buttons, why the last try failed, or finishing it. */
export function ExternalSignInParts({
  view,
  searchParams,
  onDeviceError,
  onCancel,
}: ExternalSignInPartsProps) {
  const isFormView = view === 'login' || view === 'register';
  const isContinuing = isContinuingSignIn(view, searchParams);
  const signInError = searchParams.get('signInError');
  const signInWith = searchParams.get('signInWith');
  return (
    <>
      {isFormView && (signInError || signInWith) && (
        <ExternalSignInNotice
          errorCode={signInError}
          startWith={signInWith}
          providerId={searchParams.get('provider')}
        />
      )}
      {isContinuing && (
        <Suspense fallback={<Spinner className="mx-auto size-10" label="Loading" />}>
          <ExternalSignInContinuation
            onDeviceError={(deviceError, credentials) => onDeviceError(deviceError, credentials)}
            onCancel={onCancel}
          />
        </Suspense>
      )}
      {isFormView && !isContinuing && (
        <ProviderButtons
          dividerText={
            view === 'login' ? 'or with your username and password' : 'or fill in your details'
          }
        />
      )}
    </>
  );
}
