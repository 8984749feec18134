import { Suspense, useEffect, useId } from 'react';
import { useLocation } from 'react-router';
import { Button } from '@web/components/ui/button';
import { cn } from '@web/lib/utils';
import { useAppConfig } from '@web/lib/app-config';
import {
  openCookiePreferences,
  saveConsent,
  useCookieConsent,
  useIsCookieBannerReleasedOnSupport,
  useIsCookieDialogRequested,
} from './consent-store';
import { lazyNamed } from '@web/lib/lazy-named';

const CookiePreferencesDialog = lazyNamed(
  () => import('./cookie-preferences-dialog'),
  'CookiePreferencesDialog',
);

/** Adds the optional self-hosted analytics script once, and only with consent. */
function useAnalyticsScript(scriptUrl: string | null | undefined, isAllowed: boolean) {
  useEffect(() => {
    if (!scriptUrl || !isAllowed) return;
    if (document.querySelector('script[data-analytics]')) return;
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.defer = true;
    script.dataset.analytics = 'true';
    document.head.appendChild(script);
  }, [scriptUrl, isAllowed]);
}

/**
 * Where the banner sits in the page: first where the page's HTML paints it from the start, last
 * (after the footer) where the app adds it to a page already on screen, so it pushes nothing.
 */
export type TBannerPlacement = 'first' | 'last';

/**
 * The first visit's question, as GOV.UK asks it: a compact banner in the page's flow that takes
 * no focus and covers nothing. The full settings dialog is one tap away.
 */
function CookieBanner({
  hasAnalytics,
  placement,
}: {
  hasAnalytics: boolean;
  placement: TBannerPlacement;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      // A rendered page carries the banner; a visitor who has answered never sees it (styles.css).
      data-cookie-banner=""
      className={cn(
        'border-primary/30 bg-primary-soft px-4 py-4 sm:px-6',
        placement === 'first' ? 'border-b-2' : 'border-t-2',
      )}
    >
      <div className="mx-auto flex max-w-6xl flex-col gap-3 lg:flex-row lg:items-center lg:justify-between">
        <div className="flex flex-col gap-1">
          <h2 id={headingId} className="text-xl font-bold">
            Cookies on Memento
          </h2>
          <p className="text-lg">
            {hasAnalytics
              ? 'We keep what Memento needs to work. With your permission we also count which pages are visited.'
              : 'We keep only what Memento needs to work: staying signed in and remembering this device. This Memento uses no analytics or tracking cookies.'}
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button onClick={() => saveConsent({ analytics: true, marketing: true })}>
            Accept All
          </Button>
          <Button
            variant="outline"
            onClick={() => saveConsent({ analytics: false, marketing: false })}
          >
            Essential Only
          </Button>
          <Button variant="outline" onClick={openCookiePreferences}>
            Choose Cookies
          </Button>
        </div>
      </div>
    </section>
  );
}

/** Someone may open Support in distress: the banner waits there until the numbers are passed. */
const SUPPORT_PATH = '/support';

/** Asks once for cookie choices, and honours them. */
export function CookieConsent({ placement }: { placement: TBannerPlacement }) {
  const consent = useCookieConsent();
  const isRequested = useIsCookieDialogRequested();
  const isOnSupport = useLocation().pathname === SUPPORT_PATH;
  const isReleasedOnSupport = useIsCookieBannerReleasedOnSupport();
  const isBannerHeld = isOnSupport && !isReleasedOnSupport;
  const config = useAppConfig();
  useAnalyticsScript(config.data?.analyticsScriptUrl, consent?.analytics === true);

  if (config.isPending) return null;
  const hasAnalytics = Boolean(config.data?.analyticsScriptUrl);
  if (isRequested) {
    return (
      <Suspense fallback={null}>
        <CookiePreferencesDialog
          initial={{
            analytics: consent?.analytics ?? false,
            marketing: consent?.marketing ?? false,
          }}
          hasAnalytics={hasAnalytics}
        />
      </Suspense>
    );
  }
  if (consent === null && !isBannerHeld)
    return <CookieBanner hasAnalytics={hasAnalytics} placement={placement} />;
  return null;
}
