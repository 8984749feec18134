import { lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RouteErrorPage } from './application-error';
import { AppLayout } from './layout/app-layout';
import { RedirectIfSignedIn, RequireAuth } from './route-guards';

// Every page is its own chunk, so the first screen only downloads what it shows.
const HomePage = lazy(() => import('@web/pages/home/home-page'));
const AuthPage = lazy(() => import('@web/pages/auth/auth-page'));
const OnboardingPage = lazy(() => import('@web/pages/onboarding/onboarding-page'));
const SetupPasswordPage = lazy(() => import('@web/pages/setup-password/setup-password-page'));
const RecipientsPage = lazy(() => import('@web/pages/recipients/recipients-page'));
const RecordPage = lazy(() => import('@web/pages/record/record-page'));
const AuditLogsPage = lazy(() => import('@web/pages/audit-logs/audit-logs-page'));
const AdminPage = lazy(() => import('@web/pages/admin/admin-page'));
const SignInMethodsPage = lazy(() => import('@web/pages/sign-in-methods/sign-in-methods-page'));
const ImportFromMobilePage = lazy(
  () => import('@web/pages/import-from-mobile/import-from-mobile-page'),
);
const VerifyEmailPage = lazy(() => import('@web/pages/verify-email/verify-email-page'));
const AboutPage = lazy(() => import('@web/pages/about/about-page'));
const AboutMementoPage = lazy(() => import('@web/pages/about-memento/about-memento-page'));
const SupportPage = lazy(() => import('@web/pages/support/support-page'));
const FaqPage = lazy(() => import('@web/pages/faq/faq-page'));
const FeaturesPage = lazy(() => import('@web/pages/features/features-page'));
const MarketingPage = lazy(() => import('@web/pages/marketing/marketing-page'));
const PremiumPage = lazy(() => import('@web/pages/premium/premium-page'));
const NotFoundPage = lazy(() => import('@web/pages/not-found/not-found-page'));

/** SPEC §2 route table. */
const routes: RouteObject[] = [
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
                <RecipientsPage />
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
                <SignInMethodsPage />
              </RequireAuth>
            ),
          },
          {
            path: '/audit-logs',
            element: (
              <RequireAuth access="primary">
                <AuditLogsPage />
              </RequireAuth>
            ),
          },
          {
            path: '/admin',
            element: (
              <RequireAuth access="admin">
                <AdminPage />
              </RequireAuth>
            ),
          },
          {
            path: '/auth',
            element: (
              <RedirectIfSignedIn>
                <AuthPage />
              </RedirectIfSignedIn>
            ),
          },
          { path: '/import-from-mobile', element: <ImportFromMobilePage /> },
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

export function createAppRouter() {
  return createBrowserRouter(routes);
}
