import { Suspense, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { CircleCheck, MailCheck } from 'lucide-react';
import type { TLoginForm } from '@shared/schemas/auth';
import { Alert } from '@web/components/ui/alert';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { dismissToast } from '@web/components/ui/use-toast';
import { LoginForm } from '@web/features/auth/components/login-form';
import { isDeviceBindingError } from '@web/features/auth/device-binding-error';
import { useDeviceResetDialogs } from '@web/features/device-reset/use-device-reset-dialogs';
import { lazyNamed } from '@web/lib/lazy-named';
import { EmergencyAccessIntroduction, Introduction } from './auth-introduction';
import { AuthLinks } from './auth-links';
import { ExternalSignInParts } from './external-sign-in-parts';
import {
  isContinuingSignIn,
  readCardLink,
  readResetLink,
  readView,
  searchFor,
  VIEW_TEXT,
  type TFormView,
  type TNotice,
  type TView,
} from './auth-views';
import { OtherViewForms } from './other-view-forms';

// Signing in is the first screen; the error help loads when it is needed.
const AuthErrorPanel = lazyNamed(() => import('./auth-error-panel'), 'AuthErrorPanel');

/**
 * The email and code in the address: a reset link's (`?view=reset_password#…`) or a printed
 * card's (`/auth#…`, from its QR code), read on opening or when the link is followed while this
 * page is open, then taken out of the address bar and the history at once.
 */
function useLinkPrefill() {
  const { hash, pathname, search } = useLocation();
  const navigate = useNavigate();
  const [card, setCard] = useState(() => readCardLink(hash, search));
  const [prefill, setPrefill] = useState(() => (card ? {} : readResetLink(hash)));
  const [readHash, setReadHash] = useState(hash);

  // Opened from the link, or the link followed while this page was open: fill in the form.
  if (hash !== readHash) {
    setReadHash(hash);
    const cardLink = readCardLink(hash, search);
    const link = readResetLink(hash);
    if (cardLink) setCard(cardLink);
    else if (link.email || link.code) setPrefill(link);
  }

  useEffect(() => {
    // Then take the code out of the address bar and the history.
    if (!hash) return;
    const link = readResetLink(hash);
    const next =
      !readCardLink(hash, search) && (link.email || link.code)
        ? `?${new URLSearchParams(searchFor('reset_password'))}`
        : search;
    navigate({ pathname, search: next }, { replace: true });
  }, [hash, pathname, search, navigate]);

  return { prefill, setPrefill, card };
}

/** What the last view's success means for this one: a code sent, a password changed. */
function NoticeAlert({ notice: shownNotice }: { notice: TNotice }) {
  return (
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
  const { prefill, setPrefill, card } = useLinkPrefill();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const hasSwitched = useRef(false);
  const { openReset, dialogs } = useDeviceResetDialogs({ onDeviceFreed: () => setAuthError(null) });

  const error = authError?.view === view ? authError.error : null;
  const shownNotice = notice?.view === view ? notice : null;
  const text = VIEW_TEXT[view];

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
  const isContinuing = isContinuingSignIn(view, searchParams);

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
          {shownNotice && <NoticeAlert notice={shownNotice} />}

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

          <ExternalSignInParts
            view={view}
            searchParams={searchParams}
            onDeviceError={(deviceError, credentials) =>
              setAuthError({ view: 'login', error: deviceError, credentials })
            }
            onCancel={() => switchTo('login')}
          />

          {/* Keyed by view: switching unmounts the other form, so every field starts empty. */}
          {view === 'login' && (!isContinuing || error) && (
            <LoginForm key={`login-${card?.code ?? ''}`} onError={onError} card={card} />
          )}
          <OtherViewForms
            view={view}
            prefill={prefill}
            setPrefill={setPrefill}
            onError={onError}
            switchTo={switchTo}
          />

          <AuthLinks
            view={view}
            isDeviceRefused={view === 'login' && isDeviceBindingError(error, 'login')}
            switchTo={(next) => switchTo(next)}
            onResetDevice={openReset}
          />
        </CardContent>
      </Card>

      {dialogs}
    </div>
  );
}
