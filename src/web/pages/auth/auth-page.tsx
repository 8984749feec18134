import { Suspense, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import {
  ArrowLeft,
  CircleCheck,
  HeartHandshake,
  Lock,
  MailCheck,
  MonitorSmartphone,
} from 'lucide-react';
import type { TLoginForm } from '@shared/schemas/auth';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { Spinner } from '@web/components/ui/spinner';
import { dismissToast } from '@web/components/ui/use-toast';
import { LoginForm } from '@web/features/auth/components/login-form';
import { isDeviceBindingError } from '@web/features/auth/device-binding-error';
import { useDeviceResetDialogs } from '@web/features/device-reset/use-device-reset-dialogs';
import { ExternalSignInNotice } from '@web/features/external-sign-in/components/external-sign-in-notice';
import { ProviderButtons } from '@web/features/external-sign-in/components/provider-buttons';
import { PASSWORD_TEXT } from '@web/features/passwords/passwords-api';
import { lazyNamed } from '@web/lib/lazy-named';

// Signing in is the first screen; the other views and the error help load when they are needed.
const AuthErrorPanel = lazyNamed(() => import('./auth-error-panel'), 'AuthErrorPanel');
const RegisterForm = lazyNamed(
  () => import('@web/features/auth/components/register-form'),
  'RegisterForm',
);
const EmergencyAccessForm = lazyNamed(
  () => import('@web/features/emergency-access/components/emergency-access-form'),
  'EmergencyAccessForm',
);
const ForgotPasswordForm = lazyNamed(
  () => import('@web/features/passwords/components/forgot-password-form'),
  'ForgotPasswordForm',
);
// Only after a provider sent the person back here: its terms dialog stays off the first load.
const ExternalSignInContinuation = lazyNamed(
  () => import('@web/features/external-sign-in/components/external-sign-in-continuation'),
  'ExternalSignInContinuation',
);
const ResetPasswordForm = lazyNamed(
  () => import('@web/features/passwords/components/reset-password-form'),
  'ResetPasswordForm',
);

/** The sub-views of /auth. */
type TView = 'login' | 'register' | 'forgot_password' | 'reset_password' | 'break_glass';
type TFormView = 'login' | 'register';

const REGISTER_MODES = new Set(['community', 'register']);
const QUERY_VIEWS = new Set<string>(['forgot_password', 'reset_password', 'break_glass']);

function readView(searchParams: URLSearchParams): TView {
  if (REGISTER_MODES.has(searchParams.get('mode') ?? '')) return 'register';
  const view = searchParams.get('view') ?? '';
  return QUERY_VIEWS.has(view) ? (view as TView) : 'login';
}

function searchFor(view: TView): Record<string, string> {
  if (view === 'login') return {};
  if (view === 'register') return { mode: 'register' };
  return { view };
}

/**
 * The emailed reset link carries the email and code in the fragment, which the
 * browser never sends to the server: `/auth?view=reset_password#email=…&code=…`.
 */
function readResetLink(hash: string): { email?: string; code?: string } {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const email = fragment.get('email') ?? undefined;
  const code = fragment.get('code') ?? undefined;
  return email || code ? { email, code } : {};
}

const VIEW_TEXT: Record<TView, { title: string; intro: string }> = {
  login: { title: 'Sign In', intro: 'Welcome back. Choose how you sign in.' },
  register: {
    title: 'Create Your Account',
    intro: 'Memento Community Edition is free. Your videos stay on this device.',
  },
  forgot_password: {
    title: 'Forgot Your Password?',
    intro:
      'Enter the email address of your account and we will send you a code to choose a new password.',
  },
  reset_password: {
    title: 'Reset Your Password',
    intro: 'Enter the code from our email and choose a new password.',
  },
  break_glass: {
    title: 'Emergency Access',
    intro:
      'If someone you care about chose you as their next of kin, you can set a new password for their Memento account here.',
  },
};

interface TNotice {
  view: TView;
  variant: 'success' | 'info';
  title: string;
  message: string;
}

const PROMISES = [
  { icon: HeartHandshake, text: 'Record video messages in your own words, at your own pace.' },
  {
    icon: MonitorSmartphone,
    text: 'In the Community Edition your videos stay on this device and are never uploaded.',
  },
  {
    icon: Lock,
    text: 'Your account is tied to this device, and every sign-in is recorded in a security log.',
  },
];

function Introduction() {
  return (
    <section
      aria-label="About Memento"
      className="hidden flex-col justify-center gap-8 rounded-xl bg-primary p-10 text-primary-foreground shadow-soft lg:flex"
    >
      <p className="text-4xl leading-tight font-bold tracking-tight text-balance">
        Messages for the people you love, kept safe.
      </p>
      <ul className="flex flex-col gap-5 text-lg">
        {PROMISES.map(({ icon: Icon, text }) => (
          <li key={text} className="flex items-start gap-4">
            <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-full bg-white/15">
              <Icon className="size-6" aria-hidden="true" />
            </span>
            <span className="pt-1.5">{text}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function AuthPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const view = readView(searchParams);
  const [authError, setAuthError] = useState<{
    view: TFormView;
    error: Error;
    credentials: TLoginForm | null;
  } | null>(null);
  const [notice, setNotice] = useState<TNotice | null>(null);
  const { hash, pathname } = useLocation();
  const navigate = useNavigate();
  const [prefill, setPrefill] = useState(() => readResetLink(hash));
  const [readHash, setReadHash] = useState(hash);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const hasSwitched = useRef(false);
  const { openReset, dialogs } = useDeviceResetDialogs({ onDeviceFreed: () => setAuthError(null) });

  const error = authError?.view === view ? authError.error : null;
  const shownNotice = notice?.view === view ? notice : null;
  const text = VIEW_TEXT[view];

  // Opened from the email's link, or the link followed while this page was open: fill in the form.
  if (hash !== readHash) {
    setReadHash(hash);
    const link = readResetLink(hash);
    if (link.email || link.code) setPrefill(link);
  }

  useEffect(() => {
    // Then take the code out of the address bar and the history.
    if (!hash) return;
    const link = readResetLink(hash);
    const search =
      link.email || link.code
        ? `?${new URLSearchParams(searchFor('reset_password'))}`
        : window.location.search;
    navigate({ pathname, search }, { replace: true });
  }, [hash, pathname, navigate]);

  useEffect(() => {
    // After switching views, start keyboard and screen-reader users at the new heading.
    if (hasSwitched.current) headingRef.current?.focus();
  }, [view]);

  function switchTo(next: TView, nextNotice: TNotice | null = null) {
    hasSwitched.current = true;
    setAuthError(null);
    setNotice(nextNotice);
    dismissToast();
    setSearchParams(searchFor(next), { replace: next === 'login' || next === 'register' });
  }

  function onError(nextError: Error | null, credentials?: TLoginForm) {
    if (view !== 'login' && view !== 'register') return;
    setAuthError(nextError ? { view, error: nextError, credentials: credentials ?? null } : null);
  }

  const isFormView = view === 'login' || view === 'register';
  // Back from a provider: finish there, or say plainly why not.
  const isContinuingSignIn = view === 'login' && searchParams.get('signIn') === 'continue';
  const signInError = searchParams.get('signInError');
  const signInWith = searchParams.get('signInWith');

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-8 lg:grid-cols-[5fr_6fr] lg:items-start">
      <Introduction />

      <Card>
        <CardHeader className="gap-2">
          <h1
            ref={headingRef}
            tabIndex={-1}
            className="text-3xl font-bold tracking-tight outline-none sm:text-4xl"
          >
            {text.title}
          </h1>
          <p className="text-lg text-muted-foreground">{text.intro}</p>
        </CardHeader>

        <CardContent className="flex flex-col gap-6">
          {shownNotice && (
            <Alert
              variant={shownNotice.variant}
              title={shownNotice.title}
              icon={
                shownNotice.variant === 'success' ? (
                  <CircleCheck aria-hidden="true" />
                ) : (
                  <MailCheck aria-hidden="true" />
                )
              }
            >
              <p>{shownNotice.message}</p>
            </Alert>
          )}

          {error && isFormView && (
            <Suspense fallback={null}>
              <AuthErrorPanel
                error={error}
                view={view}
                credentials={authError?.credentials}
                onResetDevice={openReset}
                onForgotPassword={() => switchTo('forgot_password')}
              />
            </Suspense>
          )}

          {view === 'break_glass' && <EmergencyAccessIntroduction />}

          {isFormView && (signInError || signInWith) && (
            <ExternalSignInNotice
              errorCode={signInError}
              startWith={signInWith}
              providerId={searchParams.get('provider')}
            />
          )}
          {isContinuingSignIn && (
            <Suspense fallback={<Spinner className="mx-auto size-10" label="Loading" />}>
              <ExternalSignInContinuation
                onDeviceError={(deviceError, credentials) =>
                  setAuthError({ view: 'login', error: deviceError, credentials })
                }
                onCancel={() => switchTo('login')}
              />
            </Suspense>
          )}
          {isFormView && !isContinuingSignIn && (
            <ProviderButtons
              dividerText={
                view === 'login' ? 'or with your username and password' : 'or fill in your details'
              }
            />
          )}

          {/* Keyed by view: switching unmounts the other form, so every field starts empty. */}
          {view === 'login' && (!isContinuingSignIn || error) && (
            <LoginForm key="login" onError={onError} />
          )}
          <Suspense fallback={<Spinner className="mx-auto size-10" label="Loading" />}>
            {view === 'register' && <RegisterForm key="register" onError={onError} />}
            {view === 'forgot_password' && (
              <ForgotPasswordForm
                key="forgot_password"
                onSent={(email, message) => {
                  setPrefill({ email });
                  switchTo('reset_password', {
                    view: 'reset_password',
                    variant: 'info',
                    title: PASSWORD_TEXT.resetInstructionsSent,
                    message,
                  });
                }}
              />
            )}
            {view === 'reset_password' && (
              <ResetPasswordForm
                key={`reset_password-${prefill.email ?? ''}-${prefill.code ?? ''}`}
                defaultEmail={prefill.email}
                defaultCode={prefill.code}
                onReset={() => {
                  setPrefill({});
                  switchTo('login', {
                    view: 'login',
                    variant: 'success',
                    title: PASSWORD_TEXT.resetSuccessful,
                    message: 'You can now sign in with your new password.',
                  });
                }}
              />
            )}
            {view === 'break_glass' && (
              <EmergencyAccessForm
                key="break_glass"
                onReset={(message) =>
                  switchTo('login', {
                    view: 'login',
                    variant: 'success',
                    title: 'Password reset with emergency access',
                    message,
                  })
                }
              />
            )}
          </Suspense>

          {view === 'login' && (
            <div className="flex flex-col items-center gap-1 text-center">
              <Button variant="link" onClick={() => switchTo('forgot_password')}>
                Forgot your password?
              </Button>
              <Button variant="link" onClick={() => switchTo('break_glass')}>
                Emergency access for next of kin
              </Button>
            </div>
          )}

          {isFormView ? (
            <div className="flex flex-col items-center gap-1 border-t border-border pt-5 text-center">
              <p className="text-muted-foreground">
                {view === 'login' ? 'New to Memento?' : 'Already have an account?'}
              </p>
              <Button
                variant="link"
                onClick={() => switchTo(view === 'login' ? 'register' : 'login')}
              >
                {view === 'login' ? 'Create an account' : 'Sign in instead'}
              </Button>
            </div>
          ) : (
            <div className="flex flex-col items-center gap-1 border-t border-border pt-5 text-center">
              {view === 'reset_password' && (
                <Button variant="link" onClick={() => switchTo('forgot_password')}>
                  Send me a new code
                </Button>
              )}
              <Button variant="link" onClick={() => switchTo('login')}>
                <ArrowLeft aria-hidden="true" />
                Back to sign in
              </Button>
            </div>
          )}

          {view === 'login' && !isDeviceBindingError(error, view) && (
            <div className="flex flex-col gap-3 rounded-lg bg-muted p-5">
              <p className="font-semibold">Setting up a shared or second-hand device?</p>
              <p className="text-base text-muted-foreground">
                Each device holds one account. If an account is registered here that should no
                longer be, you can free this device.
              </p>
              <div>
                <Button variant="outline" onClick={openReset}>
                  Reset Device Association
                </Button>
              </div>
            </div>
          )}
        </CardContent>
      </Card>

      {dialogs}
    </div>
  );
}

/** Kind words for a next of kin who may be here at a hard time. */
function EmergencyAccessIntroduction() {
  return (
    <div className="flex flex-col gap-3 rounded-lg bg-muted p-5">
      <p>
        We are sorry if you are here at a difficult time. Take your time: it only takes a few
        minutes.
      </p>
      <ul className="flex list-disc flex-col gap-1.5 pl-6">
        <li>
          Use the email address your emergency code was sent to, and the code from that email.
        </li>
        <li>The account holder is signed out everywhere and told by email.</li>
        <li>We then send you a new emergency code, as each code works once.</li>
      </ul>
    </div>
  );
}
