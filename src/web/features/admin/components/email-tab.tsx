import { useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, CircleCheck, Inbox, MailCheck, Send, Server } from 'lucide-react';
import { ADMIN_MESSAGES, ZEmailToolBody, type TEmailSettings } from '@shared/schemas/admin';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { describeError } from '@web/lib/api-client';
import {
  ADMIN_EMAIL_QUERY_KEY,
  sendTestEmail,
  sendVerificationEmail,
  useEmailSettings,
} from '../admin-api';
import { formatDateTime } from '../admin-format';

type TAction = 'verify' | 'test';

type TToolState =
  | { status: 'idle' }
  | { status: 'loading'; action: TAction }
  | { status: 'success'; action: TAction; message: string; code?: string }
  | { status: 'error'; action: TAction; message: string };

/** The email tools' messages, word for word. */
function verifyFailed(reason: string): string {
  return `Failed to verify email: ${reason || 'Unknown error'}`;
}
const TEST_FAILED = 'Failed to send test email';

/** Where mail goes: the outbox folder (sandbox mode) or the SMTP server. */
function TransportNote({ settings }: { settings: TEmailSettings }) {
  if (settings.mode === 'sandbox') {
    return (
      <Alert
        variant="info"
        kind="note"
        title="Sandbox mode: mail is saved, not sent"
        icon={<Inbox aria-hidden="true" />}
      >
        <p>
          No <code className="font-mono">SMTP_URL</code> is set, so Memento does not send mail over
          the internet. Each message is saved as a file in the outbox folder on the server instead:
        </p>
        <p
          className="rounded-lg bg-card px-3 py-2 font-mono text-base break-all"
          data-testid="outbox-path"
        >
          {settings.destination}
        </p>
        <p>
          Open a <code className="font-mono">.eml</code> file there with any mail program to read it
          and follow its link. To deliver mail for real, set{' '}
          <code className="font-mono">SMTP_URL</code> (and{' '}
          <code className="font-mono">MAIL_FROM</code>) and restart Memento.
        </p>
      </Alert>
    );
  }
  return (
    <Alert
      variant="info"
      kind="note"
      title="Mail is sent through your mail server"
      icon={<Server aria-hidden="true" />}
    >
      <p>
        Messages go through <span className="font-semibold break-all">{settings.destination}</span>{' '}
        from <span className="font-semibold break-all">{settings.from}</span>. If a test message
        does not arrive, check the spam folder and the server&apos;s log.
      </p>
    </Alert>
  );
}

function Verifications({ settings }: { settings: TEmailSettings }) {
  if (settings.verifications.length === 0) return null;
  return (
    <section aria-labelledby="verifications-title" className="flex flex-col gap-3">
      <h3 id="verifications-title" className="text-xl font-bold">
        Recent verifications
      </h3>
      <ul className="flex flex-col gap-2">
        {settings.verifications.map((entry) => (
          <li
            key={`${entry.email}-${entry.requestedAt}`}
            className="flex flex-col gap-1 rounded-lg border border-border bg-card p-3 sm:flex-row sm:items-center sm:justify-between"
          >
            <span className="font-semibold break-all">{entry.email}</span>
            {entry.verifiedAt ? (
              <span className="flex items-center gap-2 text-success">
                <CircleCheck className="size-5" aria-hidden="true" />
                Verified {formatDateTime(entry.verifiedAt)}
              </span>
            ) : (
              <span className="text-muted-foreground">
                Link sent {formatDateTime(entry.requestedAt)}, not yet opened
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** 'Verify Email' and 'Send Test': the address typed, its check, the sending and how it went. */
function useEmailTool() {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [state, setState] = useState<TToolState>({ status: 'idle' });
  const emailRef = useRef<HTMLInputElement>(null);

  async function run(action: TAction) {
    const parsed = ZEmailToolBody.safeParse({ email });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? ADMIN_MESSAGES.enterEmail);
      setState({ status: 'idle' });
      emailRef.current?.focus();
      return;
    }
    setFieldError(null);
    setState({ status: 'loading', action });
    try {
      if (action === 'verify') {
        const result = await sendVerificationEmail(parsed.data.email);
        setState(
          result.success
            ? { status: 'success', action, message: result.message }
            : {
                status: 'error',
                action,
                message: verifyFailed(result.message || result.error || ''),
              },
        );
      } else {
        const result = await sendTestEmail(parsed.data.email);
        setState(
          result.success
            ? { status: 'success', action, message: result.message, code: result.code ?? 'N/A' }
            : { status: 'error', action, message: result.message || TEST_FAILED },
        );
      }
      await queryClient.invalidateQueries({ queryKey: ADMIN_EMAIL_QUERY_KEY });
    } catch (error) {
      setState({
        status: 'error',
        action,
        message:
          action === 'verify'
            ? verifyFailed(describeError(error, ''))
            : describeError(error, TEST_FAILED),
      });
    }
  }

  return { email, setEmail, fieldError, state, emailRef, run };
}

/** While sending, then what the server answered. */
function ToolOutcome({ state }: { state: TToolState }) {
  return (
    <>
      <div aria-live="polite" className="empty:hidden">
        {state.status === 'loading' && (
          <p className="flex items-center gap-3 text-lg">
            <Spinner className="size-6" />
            {state.action === 'verify'
              ? 'Sending the verification link...'
              : 'Sending the test message...'}
          </p>
        )}
      </div>
      {state.status === 'success' && (
        <Alert
          variant="success"
          title={state.action === 'verify' ? 'Verification email sent' : 'Test email sent'}
          icon={<CircleCheck aria-hidden="true" />}
        >
          <p>{state.message}</p>
          {state.action === 'test' && (
            <p>
              Verification code:{' '}
              <span className="font-mono text-lg font-bold" data-testid="test-email-code">
                {state.code}
              </span>
            </p>
          )}
        </Alert>
      )}
      {state.status === 'error' && (
        <Alert
          variant="destructive"
          title={state.action === 'verify' ? 'Verification email not sent' : TEST_FAILED}
          icon={<CircleAlert aria-hidden="true" />}
        >
          <p>{state.message}</p>
        </Alert>
      )}
    </>
  );
}

export function EmailTab() {
  const settings = useEmailSettings();
  const { email, setEmail, fieldError, state, emailRef, run } = useEmailTool();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void run('verify');
  }

  const isLoading = state.status === 'loading';
  return (
    <>
      <form
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-5 rounded-xl border border-border bg-card p-5 shadow-soft sm:p-6"
      >
        <p className="text-lg text-muted-foreground">
          &lsquo;Verify Email&rsquo; sends a link that marks the address as verified when opened;
          &lsquo;Send Test&rsquo; sends a test message with a verification code.
        </p>
        <FormField
          ref={emailRef}
          label="Email address"
          type="email"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={fieldError ?? undefined}
        />
        <div className="flex flex-col gap-3 sm:flex-row">
          <Button type="submit" disabled={isLoading}>
            <MailCheck aria-hidden="true" />
            Verify Email
          </Button>
          <Button variant="outline" onClick={() => void run('test')} disabled={isLoading}>
            <Send aria-hidden="true" />
            Send Test
          </Button>
        </div>
        <ToolOutcome state={state} />
      </form>
      {settings.data && <TransportNote settings={settings.data} />}
      {settings.data && <Verifications settings={settings.data} />}
      {settings.isError && (
        <Alert
          variant="destructive"
          title="Mail settings could not be loaded"
          icon={<CircleAlert aria-hidden="true" />}
        >
          <p>{settings.error.message}</p>
        </Alert>
      )}
    </>
  );
}
