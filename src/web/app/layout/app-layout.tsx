import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { PageSpinner } from '@web/components/ui/spinner';
import { hasCloudSync } from '@shared/domain/plan-limits';
import { useAuth } from '@web/lib/auth-provider';
import { CookieConsent } from '@web/features/cookie-consent/cookie-consent-dialog';
import { SiteFooter } from './site-footer';
import { useIsPrerenderedVisit, useIsRenderedPage } from '../prerendered-page';
import { RouteAnnouncer } from './route-announcer';
import { SiteHeader } from './site-header';
import { useAfterFirstPaint } from '@web/lib/use-after-first-paint';
import { cn } from '@web/lib/utils';
import { LegacyReleaseMount } from '@web/features/legacy/components/legacy-release-mount';
import { InstallOffer } from '@web/features/offline/install-offer';
import { OfflineStatus } from '@web/features/offline/offline-status';
import { UpdatePrompt } from '@web/features/offline/update-prompt';

const CloudSync = lazy(() => import('@web/features/cloud/cloud-sync'));
const PhoneCopySealing = lazy(() => import('@web/features/cloud/phone-copy-sealing'));

/**
 * Background cloud sync runs for paid accounts on their primary device, and loads only then,
 * after the page's first paint: its code and its checks do not hold up the screen. Their other
 * devices only seal what a phone sent.
 */
function CloudSyncMount() {
  const { user, deviceStatus } = useAuth();
  const isPainted = useAfterFirstPaint();
  if (!isPainted || !user || user.category !== 'primary' || !hasCloudSync(user)) return null;
  const isPrimaryDevice = deviceStatus?.isPrimary ?? user.deviceStatus === 'primary';
  return (
    <Suspense fallback={null}>
      {isPrimaryDevice ? <CloudSync userId={user.id} /> : <PhoneCopySealing userId={user.id} />}
    </Suspense>
  );
}

export function AppLayout() {
  // The page this visit arrived rendered has its code already (mount.tsx): nothing to wait for.
  const isRenderedPage = useIsRenderedPage(useLocation().pathname);
  // The banner goes first only where the HTML painted it with the page. Where the app draws it
  // after the page has painted (signed-in pages, pages not rendered at build time), it comes
  // after the footer: inserted above, it pushed the page down as a finger came to it.
  const isBannerFirst = useIsPrerenderedVisit();
  const isSignedIn = useAuth().user !== null;
  return (
    <>
      <div className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-lg bg-primary px-5 py-3 font-semibold text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
        >
          Skip to main content
        </a>
        <RouteAnnouncer />
        {isBannerFirst && <CookieConsent placement="first" />}
        <SiteHeader />
        <main
          id="main"
          tabIndex={-1}
          // A signed-in page fills in as its data arrives: at least a screen high, it keeps the
          // footer below the fold, where that does not move it under a finger.
          className={cn(
            'flex w-full flex-1 flex-col px-4 py-6 outline-none sm:px-6 sm:py-10',
            isSignedIn && 'min-h-dvh',
          )}
        >
          <OfflineStatus />
          <LegacyReleaseMount />
          {isRenderedPage ? (
            <Outlet />
          ) : (
            // A screen's height while the page's code loads: the footer waits below the fold,
            // where the page's arrival does not move it under a finger.
            <Suspense
              fallback={
                <div className="min-h-dvh">
                  <PageSpinner />
                </div>
              }
            >
              <Outlet />
            </Suspense>
          )}
          {isSignedIn && <InstallOffer />}
        </main>
        <SiteFooter />
        <CloudSyncMount />
        <UpdatePrompt />
        <ScrollRestoration />
      </div>
      {/* Outside the screen-high column, so that its arrival moves not even the footer up. */}
      {!isBannerFirst && <CookieConsent placement="last" />}
    </>
  );
}
