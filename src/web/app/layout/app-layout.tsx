import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { PageSpinner } from '@web/components/ui/spinner';
import { hasCloudSync } from '@shared/domain/plans';
import { useAuth } from '@web/features/auth/auth-provider';
import { CookieConsent } from '@web/features/cookie-consent/cookie-consent-dialog';
import { SiteFooter } from './site-footer';
import { useIsRenderedPage } from '../visitor-snapshot';
import { SiteHeader } from './site-header';

const CloudSync = lazy(() => import('@web/features/sync/cloud-sync'));

/** Background cloud sync runs for paid accounts on their primary device, and loads only then. */
function CloudSyncMount() {
  const { user, deviceStatus } = useAuth();
  if (!user || user.category !== 'primary' || !hasCloudSync(user)) return null;
  const isPrimaryDevice = deviceStatus?.isPrimary ?? user.deviceStatus === 'primary';
  if (!isPrimaryDevice) return null;
  return (
    <Suspense fallback={null}>
      <CloudSync userId={user.id} />
    </Suspense>
  );
}

export function AppLayout() {
  // The page this visit arrived rendered has its code already (mount.tsx): nothing to wait for.
  const isRenderedPage = useIsRenderedPage(useLocation().pathname);
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-primary px-5 py-3 font-semibold text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      <CookieConsent />
      <SiteHeader />
      <main
        id="main"
        tabIndex={-1}
        className="flex w-full flex-1 flex-col px-4 py-6 outline-none sm:px-6 sm:py-10"
      >
        {isRenderedPage ? (
          <Outlet />
        ) : (
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        )}
      </main>
      <SiteFooter />
      <CloudSyncMount />
      <ScrollRestoration />
    </div>
  );
}
