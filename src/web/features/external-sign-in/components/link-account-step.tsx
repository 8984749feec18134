import { useState, type FormEvent } from 'react';
import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import { Link2, MailCheck } from 'lucide-react';
import { ONE_TIME_CODE_LENGTH, isWellFormedCode } from '@shared/domain/codes';
import type { TUser } from '@shared/schemas/auth';
import type { TExternalFinishBody } from '@shared/schemas/external-sign-in';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { isApiError } from '@web/lib/api-client';
import { requestLinkCode } from '../external-sign-in-api';

/** Refusals about this device, which the page's own panel explains. */
export function isDeviceError(error: Error): boolean {
  return isApiError(error, 'NOT_PRIMARY_DEVICE') || isApiError(error, 'DEVICE_HAS_PRIMARY_ACCOUNT');
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
export function LinkAccountStep({
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
        <ProofField
          sentTo={isByCode ? sentTo : null}
          isSending={sendCode.isPending}
          code={code}
          onCodeChange={setCode}
          password={password}
          onPasswordChange={setPassword}
          error={fieldError ?? wrongProof ?? undefined}
        />
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
      <OtherWayToProve
        isByCode={isByCode}
        email={email}
        isBusy={isBusy}
        isSending={sendCode.isPending}
        onSendCode={() => {
          setCode('');
          finish.reset();
          sendCode.mutate();
        }}
        onEmailCode={() => sendCode.mutate()}
        onUsePassword={switchToPassword}
      />
    </section>
  );
}

interface ProofFieldProps {
  /** Where the code went, once one was asked for; until then the password is asked. */
  sentTo: string | null;
  isSending: boolean;
  code: string;
  onCodeChange: (code: string) => void;
  password: string;
  onPasswordChange: (password: string) => void;
  error: string | undefined;
}

/** The password, or the code from the email with where it was sent. */
function ProofField({
  sentTo,
  isSending,
  code,
  onCodeChange,
  password,
  onPasswordChange,
  error,
}: ProofFieldProps) {
  return sentTo !== null ? (
    <>
      <p role="status" className="flex items-start gap-3 font-semibold">
        <MailCheck className="mt-0.5 size-6 shrink-0 text-success" aria-hidden="true" />
        {isSending ? (
          <span>Sending a new code...</span>
        ) : (
          <span>
            We sent a code to <span className="break-all">{sentTo}</span>. It works for 30 minutes.
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
        onChange={(event) => onCodeChange(event.target.value)}
        error={error}
      />
    </>
  ) : (
    <FormField
      key="password"
      label="Your Memento password"
      type="password"
      autoComplete="current-password"
      value={password}
      onChange={(event) => onPasswordChange(event.target.value)}
      error={error}
    />
  );
}

interface OtherWayToProveProps {
  isByCode: boolean;
  email: string | null;
  isBusy: boolean;
  isSending: boolean;
  onSendCode: () => void;
  onEmailCode: () => void;
  onUsePassword: () => void;
}

/** Under the form: a code by email instead of the password, or back to the password. */
function OtherWayToProve({
  isByCode,
  email,
  isBusy,
  isSending,
  onSendCode,
  onEmailCode,
  onUsePassword,
}: OtherWayToProveProps) {
  return (
    <div className="flex flex-col gap-3 border-t border-primary/20 pt-4">
      {isByCode ? (
        <>
          <p>No email yet? It can take a minute; please look in your spam folder too.</p>
          <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            <Button variant="outline" onClick={onSendCode} disabled={isBusy || isSending}>
              Send a new code
            </Button>
            <Button variant="ghost" onClick={onUsePassword} disabled={isBusy}>
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
            <Button variant="outline" onClick={onEmailCode} disabled={isBusy || isSending}>
              {isSending ? 'Sending code...' : 'Email me a code'}
            </Button>
          </div>
        </>
      )}
    </div>
  );
}
