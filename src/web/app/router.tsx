import { createBrowserRouter, type RouteObject } from 'react-router';
import { lazyPage } from '@web/lib/lazy-page';
import { RouteErrorPage } from './application-error';
import { AppLayout } from './layout/app-layout';
import { RedirectIfSignedIn, RequireAuth } from './route-guards';
import { NeedsConnection } from '@web/features/offline/needs-connection';

// Every page is its own chunk, so the first screen only downloads what it shows.
const HomePage = lazyPage(() => import('@web/pages/home/home-page'));
const AuthPage = lazyPage(() => import('@web/pages/auth/auth-page'));
const FamilySignInPage = lazyPage(() => import('@web/pages/care-home/family-sign-in-page'));
const OnboardingPage = lazyPage(() => import('@web/pages/onboarding/onboarding-page'));
const SetupPasswordPage = lazyPage(() => import('@web/pages/setup-password/setup-password-page'));
const RecipientsPage = lazyPage(() => import('@web/pages/recipients/recipients-page'));
const RecordPage = lazyPage(() => import('@web/pages/record/record-page'));
const AuditLogsPage = lazyPage(() => import('@web/pages/audit-logs/audit-logs-page'));
const AdminPage = lazyPage(() => import('@web/pages/admin/admin-page'));
const SignInMethodsPage = lazyPage(() => import('@web/pages/sign-in-methods/sign-in-methods-page'));
const ImportFromMobilePage = lazyPage(
  () => import('@web/pages/import-from-mobile/import-from-mobile-page'),
);
const VerifyEmailPage = lazyPage(() => import('@web/pages/verify-email/verify-email-page'));
const AboutPage = lazyPage(() => import('@web/pages/about/about-page'));
const AboutMementoPage = lazyPage(() => import('@web/pages/about-memento/about-memento-page'));
const SupportPage = lazyPage(() => import('@web/pages/support/support-page'));
const FaqPage = lazyPage(() => import('@web/pages/faq/faq-page'));
const FeaturesPage = lazyPage(() => import('@web/pages/features/features-page'));
const MarketingPage = lazyPage(() => import('@web/pages/marketing/marketing-page'));
const PremiumPage = lazyPage(() => import('@web/pages/premium/premium-page'));
const NotFoundPage = lazyPage(() => import('@web/pages/not-found/not-found-page'));
const LegacyPage = lazyPage(() => import('@web/pages/legacy/legacy-page'));
const LegacyCancelPage = lazyPage(() => import('@web/pages/legacy/legacy-cancel-page'));
const KeyRecoveryCancelPage = lazyPage(
  () => import('@web/pages/key-recovery/key-recovery-cancel-page'),
);
const EncryptionPage = lazyPage(() => import('@web/pages/encryption/encryption-page'));
const CareHomePage = lazyPage(() => import('@web/pages/care-home/care-home-page'));
const CareHomeJoinPage = lazyPage(() => import('@web/pages/care-home/care-home-join-page'));
const StationPage = lazyPage(() => import('@web/pages/station/station-page'));
const MoveMessagesPage = lazyPage(() => import('@web/pages/move-messages/move-messages-page'));
const ReceiveMessagesPage = lazyPage(
  () => import('@web/pages/move-messages/receive-messages-page'),
);

/** Every address the app answers, with who may open it. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        errorElement: <RouteErrorPage />,
        children: [
          {
            path: '/',
            element: (
              <RequireAuth>
                <HomePage />
              </RequireAuth>
            ),
          },
          {
            path: '/onboarding',
            element: (
              <RequireAuth>
                <OnboardingPage />
              </RequireAuth>
            ),
          },
          {
            path: '/setup-password',
            element: (
              <RequireAuth>
                <SetupPasswordPage />
              </RequireAuth>
            ),
          },
          {
            path: '/recipients',
            element: (
              <RequireAuth>
                <NeedsConnection>
                  <RecipientsPage />
                </NeedsConnection>
              </RequireAuth>
            ),
          },
          {
            path: '/record',
            element: (
              <RequireAuth>
                <RecordPage />
              </RequireAuth>
            ),
          },
          {
            path: '/sign-in-methods',
            element: (
              <RequireAuth access="primary">
                <NeedsConnection>
                  <SignInMethodsPage />
                </NeedsConnection>
              </RequireAuth>
            ),
          },
          {
            path: '/audit-logs',
            element: (
              <RequireAuth access="primary">
                <NeedsConnection>
                  <AuditLogsPage />
                </NeedsConnection>
              </RequireAuth>
            ),
          },
          {
            path: '/legacy',
            // Any of the owner's devices: a waiting release is cancelled from wherever they are.
            element: (
              <RequireAuth>
                <NeedsConnection>
                  <LegacyPage />
                </NeedsConnection>
              </RequireAuth>
            ),
          },
          {
            path: '/encryption',
            // Any of the owner's devices: each one is unlocked here to open sealed messages.
            element: (
              <RequireAuth>
                <NeedsConnection>
                  <EncryptionPage />
                </NeedsConnection>
              </RequireAuth>
            ),
          },
          {
            path: '/care-home',
            element: (
              <RequireAuth>
                <NeedsConnection>
                  <CareHomePage />
                </NeedsConnection>
              </RequireAuth>
            ),
          },
          {
            // A care home's families, not yet signed in: its name and logo, then the sign-in.
            path: '/r/:slug',
            element: (
              <NeedsConnection>
                <FamilySignInPage />
              </NeedsConnection>
            ),
          },
          {
            // Signed in or not: the page itself asks for a sign-in, keeping the token in the link.
            path: '/care-home/join',
            element: (
              <NeedsConnection>
                <CareHomeJoinPage />
              </NeedsConnection>
            ),
          },
          {
            // A care home's tablet: no account is signed in on it, the carer's PIN opens it.
            path: '/station',
            element: (
              <NeedsConnection>
                <StationPage />
              </NeedsConnection>
            ),
          },
          {
            path: '/admin',
            element: (
              <RequireAuth access="admin">
                <NeedsConnection>
                  <AdminPage />
                </NeedsConnection>
              </RequireAuth>
            ),
          },
          {
            path: '/auth',
            element: (
              <RedirectIfSignedIn>
                <NeedsConnection>
                  <AuthPage />
                </NeedsConnection>
              </RedirectIfSignedIn>
            ),
          },
          // The link in the owner's email: no sign-in, the token in the fragment.
          { path: '/legacy/cancel', element: <LegacyCancelPage /> },
          { path: '/key-recovery/cancel', element: <KeyRecoveryCancelPage /> },
          { path: '/import-from-mobile', element: <ImportFromMobilePage /> },
          // Not behind the sign-in guard: the old device's session ends when the account moves,
          // and the page goes on sending with its own key to the transfer.
          { path: '/move-messages', element: <MoveMessagesPage /> },
          { path: '/receive-messages', element: <ReceiveMessagesPage /> },
          { path: '/about', element: <AboutPage /> },
          { path: '/verify-email', element: <VerifyEmailPage /> },
          { path: '/about-memento', element: <AboutMementoPage /> },
          { path: '/support', element: <SupportPage /> },
          { path: '/faq', element: <FaqPage /> },
          { path: '/features', element: <FeaturesPage /> },
          { path: '/marketing', element: <MarketingPage /> },
          { path: '/premium', element: <PremiumPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

/** The pages the build renders for visitors (@shared/domain/first-paint), by path. */
const FIRST_PAGES: Record<string, { preload: () => Promise<unknown> }> = {
  '/auth': AuthPage,
  '/features': FeaturesPage,
};

/** Loads the code of a page rendered at build time, so that it hydrates in one pass. */
export async function preloadFirstPage(path: string): Promise<void> {
  await FIRST_PAGES[path]?.preload();
}

/** The pages a signed-in person opens most, by path (the shell's HTML holds none of them). */
const SIGNED_IN_PAGES: Record<string, { preload: () => Promise<unknown> }> = {
  '/': HomePage,
  '/recipients': RecipientsPage,
  '/record': RecordPage,
  '/audit-logs': AuditLogsPage,
};

/**
 * Loads the code of the page opened, alongside the app, so that the first render draws it whole:
 * no spinner in its place, and nothing below it pushed down when it comes.
 */
export async function preloadSignedInPage(path: string): Promise<void> {
  await SIGNED_IN_PAGES[path]?.preload();
}

export function createAppRouter() {
  return createBrowserRouter(routes);
}
