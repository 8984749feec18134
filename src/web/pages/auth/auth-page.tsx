import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { HeartHandshake, Lock, MonitorSmartphone } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { dismissToast } from '@web/components/ui/use-toast';
import {
  AuthErrorPanel,
  isDeviceBindingError,
} from '@web/features/auth/components/auth-error-panel';
import { LoginForm } from '@web/features/auth/components/login-form';
import { RegisterForm } from '@web/features/auth/components/register-form';
import { useDeviceResetDialogs } from '@web/features/device-reset/use-device-reset-dialogs';

type TView = 'login' | 'register';

const REGISTER_MODES = new Set(['community', 'register']);

const VIEW_TEXT: Record<TView, { title: string; intro: string }> = {
  login: { title: 'Sign In', intro: 'Welcome back. Sign in with your username and password.' },
  register: {
    title: 'Create Your Account',
    intro: 'Memento Community Edition is free. Your videos stay on this device.',
  },
};

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
  const view: TView = REGISTER_MODES.has(searchParams.get('mode') ?? '') ? 'register' : 'login';
  const [authError, setAuthError] = useState<{ view: TView; error: Error } | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const hasSwitched = useRef(false);
  const { openReset, dialogs } = useDeviceResetDialogs({ onDeviceFreed: () => setAuthError(null) });

  const error = authError?.view === view ? authError.error : null;
  const text = VIEW_TEXT[view];

  useEffect(() => {
    // After switching views, start keyboard and screen-reader users at the new heading.
    if (hasSwitched.current) headingRef.current?.focus();
  }, [view]);

  function switchTo(next: TView) {
    hasSwitched.current = true;
    setAuthError(null);
    dismissToast();
    setSearchParams(next === 'register' ? { mode: 'register' } : {}, { replace: true });
  }

  function onError(nextError: Error | null) {
    setAuthError(nextError ? { view, error: nextError } : null);
  }

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
          {error && <AuthErrorPanel error={error} view={view} onResetDevice={openReset} />}

          {/* Keyed by view: switching unmounts the other form, so every field starts empty. */}
          {view === 'login' ? (
            <LoginForm key="login" onError={onError} />
          ) : (
            <RegisterForm key="register" onError={onError} />
          )}

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
