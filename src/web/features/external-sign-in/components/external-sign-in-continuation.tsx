import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, type UseMutationResult } from '@tanstack/react-query';
import { CircleAlert, Link2, MailCheck, UserRoundPlus } from 'lucide-react';
import { ONE_TIME_CODE_LENGTH, isWellFormedCode } from '@shared/domain/codes';
import type { TUser } from '@shared/schemas/auth';
import type { TExternalFinishBody } from '@shared/schemas/external-sign-in';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import type { TMoveCredentials } from '@web/lib/auth-api';
import { TermsOfServiceDialog } from '@web/components/terms-of-service-dialog';
import { isApiError } from '@web/lib/api-client';
import { fetchPendingSignIn, finishExternalSignIn, requestLinkCode } from '../external-sign-in-api';

interface ExternalSignInContinuationProps {
  /** Device refusals are shown by the page's own panel, as for a password sign-in. */
  onDeviceError: (error: Error, credentials: TMoveCredentials | null) => void;
  onCancel: () => void;
}

function isDeviceError(error: Error): boolean {
  return isApiError(error, 'NOT_PRIMARY_DEVICE') || isApiError(error, 'DEVICE_HAS_PRIMARY_ACCOUNT');
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
  const [isTermsOpen, setIsTermsOpen] = useState(false);
  const finish = useMutation({
    mutationFn: (body: TExternalFinishBody) => finishExternalSignIn(body),
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
        {finishError && (
          <p role="alert" className="font-semibold text-destructive">
            {finishError}
          </p>
        )}
        <div className="flex flex-col gap-3 sm:flex-row">
          <Button size="lg" onClick={() => setIsTermsOpen(true)} disabled={finish.isPending}>
            {finish.isPending ? 'Creating account...' : 'Create My Account'}
          </Button>
          <Button size="lg" variant="ghost" onClick={onCancel} disabled={finish.isPending}>
            Cancel
          </Button>
        </div>
        <TermsOfServiceDialog
          open={isTermsOpen}
          onOpenChange={setIsTermsOpen}
          onAccept={() => {
            setIsTermsOpen(false);
            finish.mutate({ tosAccepted: true, tosAcceptedAt: new Date().toISOString() });
          }}
        />
      </section>
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

const CODE_FORMAT_MESSAGE = 'The code has 8 letters and numbers, like ABCD-EF23';

interface LinkAccountStepProps {
  providerName: string;
  email: string | null;
  username: string | null;
  finish: UseMutationResult<TUser, Error, TExternalFinishBody>;
  onDeviceError: (error: Error) => void;
  onCancel: () => void;
}

/**
 * An account already uses this email: it is proven once, by its password or, for someone who
 * never set one or has forgotten it, by a code sent to that email, before the provider is linked.
 */
function LinkAccountStep({
  providerName,
  email,
  username,
  finish,
  onDeviceError,
  onCancel,
}: LinkAccountStepProps) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const sendCode = useMutation({
    mutationFn: requestLinkCode,
    onSuccess: (result) => {
      setSentTo(result.maskedEmail);
      setFieldError(null);
      finish.reset();
    },
    onError: (error) => {
      if (isDeviceError(error)) onDeviceError(error);
    },
  });
  const isByCode = sentTo !== null;
  const isBusy = finish.isPending || finish.isSuccess;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isByCode) {
      if (!code.trim()) return setFieldError('Please enter the code from the email');
      if (!isWellFormedCode(code, ONE_TIME_CODE_LENGTH)) return setFieldError(CODE_FORMAT_MESSAGE);
      setFieldError(null);
      finish.mutate({ code });
      return;
    }
    if (!password) return setFieldError('Password is required');
    setFieldError(null);
    finish.mutate({ password });
  }

  function switchToPassword() {
    setSentTo(null);
    setCode('');
    setFieldError(null);
    finish.reset();
    sendCode.reset();
  }

  // A wrong password or code is shown at its field; anything else below the form.
  const wrongProof =
    isApiError(finish.error, 'INVALID_CREDENTIALS') || isApiError(finish.error, 'INVALID_CODE')
      ? finish.error.message
      : null;
  const otherError =
    (finish.isError && !wrongProof && !isDeviceError(finish.error) && finish.error.message) ||
    (sendCode.isError && !isDeviceError(sendCode.error) && sendCode.error.message) ||
    null;

  return (
    <section
      aria-labelledby="link-account-heading"
      className="flex flex-col gap-4 rounded-xl border-2 border-primary/30 bg-primary-soft p-5"
    >
      <h2 id="link-account-heading" className="flex items-center gap-3 text-2xl font-bold">
        <Link2 className="size-7 text-primary" aria-hidden="true" />
        You already have an account
      </h2>
      <p>
        A Memento account already uses <span className="font-semibold break-all">{email}</span>. To
        use {providerName} to sign in to it from now on,{' '}
        {isByCode ? 'enter the code we emailed to it.' : 'enter its password once.'}
      </p>
      {username && (
        <p>
          Your username is <span className="font-semibold break-all">{username}</span>.
        </p>
      )}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        {isByCode ? (
          <>
            <p role="status" className="flex items-start gap-3 font-semibold">
              <MailCheck className="mt-0.5 size-6 shrink-0 text-success" aria-hidden="true" />
              {sendCode.isPending ? (
                <span>Sending a new code...</span>
              ) : (
                <span>
                  We sent a code to <span className="break-all">{sentTo}</span>. It works for 30
                  minutes.
                </span>
              )}
            </p>
            <FormField
              key="code"
              label="Code from the email"
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellCheck={false}
              placeholder="ABCD-EF23"
              className="max-w-xs"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              error={fieldError ?? wrongProof ?? undefined}
            />
          </>
        ) : (
          <FormField
            key="password"
            label="Your Memento password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={fieldError ?? wrongProof ?? undefined}
          />
        )}
        {otherError && (
          <p role="alert" className="font-semibold text-destructive">
            {otherError}
          </p>
        )}
        <div className="flex flex-col gap-3 sm:flex-row">
          <Button type="submit" size="lg" disabled={isBusy}>
            {isBusy ? 'Linking...' : `Link ${providerName} and Sign In`}
          </Button>
          <Button size="lg" variant="ghost" onClick={onCancel} disabled={isBusy}>
            Cancel
          </Button>
        </div>
      </form>
      <div className="flex flex-col gap-3 border-t border-primary/20 pt-4">
        {isByCode ? (
          <>
            <p>No email yet? It can take a minute; please look in your spam folder too.</p>
            <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
              <Button
                variant="outline"
                onClick={() => {
                  setCode('');
                  finish.reset();
                  sendCode.mutate();
                }}
                disabled={isBusy || sendCode.isPending}
              >
                Send a new code
              </Button>
              <Button variant="ghost" onClick={switchToPassword} disabled={isBusy}>
                Use my password instead
              </Button>
            </div>
          </>
        ) : (
          <>
            <p>
              Never set a password, or forgotten it? We can email a code to{' '}
              <span className="break-all">{email}</span> instead.
            </p>
            <div>
              <Button
                variant="outline"
                onClick={() => sendCode.mutate()}
                disabled={isBusy || sendCode.isPending}
              >
                {sendCode.isPending ? 'Sending code...' : 'Email me a code'}
              </Button>
            </div>
          </>
        )}
      </div>
    </section>
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
