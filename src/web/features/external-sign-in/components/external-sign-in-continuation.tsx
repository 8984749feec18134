import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { sendWithPassword } from '@web/lib/encryption/password-proof';
import { CircleAlert, UserRoundPlus } from 'lucide-react';
import type { TExternalFinishBody } from '@shared/schemas/external-sign-in';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import type { TMoveCredentials } from '@web/lib/auth-api';
import { TermsOfServiceDialog } from '@web/components/terms-of-service-dialog';
import { isApiError } from '@web/lib/api-client';
import { fetchPendingSignIn, finishExternalSignIn } from '../external-sign-in-api';
import { isDeviceError, LinkAccountStep } from './link-account-step';

interface ExternalSignInContinuationProps {
  /** Device refusals are shown by the page's own panel, as for a password sign-in. */
  onDeviceError: (error: Error, credentials: TMoveCredentials | null) => void;
  onCancel: () => void;
}

/**
 * Back from the provider (`/auth?signIn=continue`): signs in at once, or asks what is still
 * needed — the Terms of Service for a new account, or, when an account with this email already
 * exists, its password or a code emailed to it, once, before the two are linked.
 */
export function ExternalSignInContinuation({
  onDeviceError,
  onCancel,
}: ExternalSignInContinuationProps) {
  const pending = useQuery({
    queryKey: ['/api/auth/external/pending'],
    queryFn: fetchPendingSignIn,
    retry: false,
    staleTime: Infinity,
  });
  const finish = useMutation({
    mutationFn: ({ password, ...rest }: TExternalFinishBody) => {
      const username = pending.data?.username;
      // The account's name known: its password goes as its proof when the account asks for that.
      return password && username
        ? sendWithPassword(username, password, (field) =>
            finishExternalSignIn({ ...rest, ...field }),
          )
        : finishExternalSignIn({ ...rest, ...(password ? { password } : {}) });
    },
    // A full load, so everything starts afresh as this account (set-up steps come next).
    onSuccess: () => window.location.assign('/'),
    onError: (error, body) => {
      if (!isDeviceError(error)) return;
      const username = pending.data?.username;
      onDeviceError(
        error,
        username && body.password ? { username, password: body.password } : null,
      );
    },
  });
  const hasFinished = useRef(false);
  const step = pending.data?.step;

  useEffect(() => {
    // A returning account needs nothing more: finish at once, once.
    if (step === 'sign_in' && !hasFinished.current) {
      hasFinished.current = true;
      finish.mutate({});
    }
  }, [step, finish]);

  if (pending.isPending) return <Working>Finishing your sign-in...</Working>;
  if (pending.isError) return <NotSignedIn message={pending.error.message} onCancel={onCancel} />;

  const { providerName, email, firstName, username } = pending.data;
  const finishError =
    finish.isError &&
    !isDeviceError(finish.error) &&
    !isApiError(finish.error, 'INVALID_CREDENTIALS')
      ? finish.error.message
      : null;

  if (step === 'sign_in') {
    if (!finish.isError) return <Working>Signing you in with {providerName}...</Working>;
    if (!isDeviceError(finish.error)) {
      return <NotSignedIn message={finish.error.message} onCancel={onCancel} />;
    }
    return (
      <Alert variant="info" title={`Signed in with ${providerName} on another device?`} kind="note">
        <p>
          To move your account to this device, sign in below with your username and password, then
          choose &lsquo;Use this device instead&rsquo;.
        </p>
      </Alert>
    );
  }

  if (step === 'terms') {
    return (
      <NewAccountStep
        providerName={providerName}
        email={email}
        firstName={firstName}
        error={finishError}
        isPending={finish.isPending}
        onCancel={onCancel}
        onAccept={() =>
          finish.mutate({ tosAccepted: true, tosAcceptedAt: new Date().toISOString() })
        }
      />
    );
  }

  return (
    <LinkAccountStep
      providerName={providerName}
      email={email}
      username={username}
      finish={finish}
      onDeviceError={(error) => onDeviceError(error, null)}
      onCancel={onCancel}
    />
  );
}

/** A step under way, announced to screen readers. */
function Working({ children }: { children: ReactNode }) {
  return (
    <div className="flex items-center gap-3 text-lg" role="status">
      <Spinner />
      {children}
    </div>
  );
}

/** The sign-in did not happen: why, and the way back to the form. */
function NotSignedIn({ message, onCancel }: { message: string; onCancel: () => void }) {
  return (
    <Alert variant="destructive" title="Not signed in" icon={<CircleAlert aria-hidden="true" />}>
      <p>{message}</p>
      <div>
        <Button variant="outline" onClick={onCancel}>
          Back to sign in
        </Button>
      </div>
    </Alert>
  );
}

/** A new account: who the provider says this is, and the Terms of Service to accept first. */
function NewAccountStep({
  providerName,
  email,
  firstName,
  error,
  isPending,
  onCancel,
  onAccept,
}: {
  providerName: string;
  email: string | null;
  firstName: string | null;
  error: string | null;
  isPending: boolean;
  onCancel: () => void;
  onAccept: () => void;
}) {
  const [isTermsOpen, setIsTermsOpen] = useState(false);
  return (
    <section
      aria-labelledby="new-account-heading"
      className="flex flex-col gap-4 rounded-xl border-2 border-primary/30 bg-primary-soft p-5"
    >
      <h2 id="new-account-heading" className="flex items-center gap-3 text-2xl font-bold">
        <UserRoundPlus className="size-7 text-primary" aria-hidden="true" />
        {firstName ? `Welcome, ${firstName}` : 'Welcome to Memento'}
      </h2>
      <p>
        You signed in with {providerName} as{' '}
        <span className="font-semibold break-all">{email}</span>. We will create your Memento
        account for this email address, tied to this device.
      </p>
      <p>Please read and accept the Terms of Service to continue.</p>
      {error && (
        <p role="alert" className="font-semibold text-destructive">
          {error}
        </p>
      )}
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button size="lg" onClick={() => setIsTermsOpen(true)} disabled={isPending}>
          {isPending ? 'Creating account...' : 'Create My Account'}
        </Button>
        <Button size="lg" variant="ghost" onClick={onCancel} disabled={isPending}>
          Cancel
        </Button>
      </div>
      <TermsOfServiceDialog
        open={isTermsOpen}
        onOpenChange={setIsTermsOpen}
        onAccept={() => {
          setIsTermsOpen(false);
          onAccept();
        }}
      />
    </section>
  );
}
