import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { TUser } from '@shared/schemas/auth';
import { PageSpinner } from '@web/components/ui/spinner';
import { useAuth } from '@web/features/auth/auth-provider';

/**
 * The redirect of primary accounts without a finished onboarding to /onboarding (SPEC §2,
 * DESIGN §5 guard order). Switched on by the onboarding wizard issue, together with the wizard;
 * until then a new user lands on the dashboard.
 */
export const ONBOARDING_REDIRECT_ENABLED = false;

/** DESIGN §5: a primary account signed in on its primary device. */
export function isPrimaryUser(user: TUser): boolean {
  return user.isPrimary && user.deviceStatus === 'primary';
}

type TAccess = 'signed-in' | 'admin' | 'primary';

interface RequireAuthProps {
  children: ReactNode;
  access?: TAccess;
}

/** SPEC §2 route guard, in DESIGN §5 order. */
export function RequireAuth({ children, access = 'signed-in' }: RequireAuthProps) {
  const { user, isLoading } = useAuth();
  const { pathname } = useLocation();

  if (isLoading) return <PageSpinner label="Checking your sign-in" />;
  if (!user) return <Navigate to="/auth" replace />;
  if (user.firstLogin && pathname !== '/setup-password')
    return <Navigate to="/setup-password" replace />;
  if (
    ONBOARDING_REDIRECT_ENABLED &&
    user.category === 'primary' &&
    !user.onboardingCompletedAt &&
    pathname !== '/onboarding' &&
    pathname !== '/setup-password'
  ) {
    return <Navigate to="/onboarding" replace />;
  }
  if (access === 'admin' && !user.isAdmin) return <Navigate to="/" replace />;
  if (access === 'primary' && !isPrimaryUser(user)) return <Navigate to="/" replace />;
  return children;
}

/** /auth is for visitors: a signed-in user goes home. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { user, isLoading } = useAuth();
  if (isLoading) return <PageSpinner label="Checking your sign-in" />;
  if (user) return <Navigate to="/" replace />;
  return children;
}
