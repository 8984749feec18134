import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageSpinner } from '@web/components/ui/spinner';
import { AdminsOnlyNotice } from '@web/features/admin/components/admins-only-notice';
import { isPrimaryUser, needsOnboarding } from '@web/lib/auth-api';
import { useAuth } from '@web/lib/auth-provider';

type TAccess = 'signed-in' | 'admin' | 'primary';

interface RequireAuthProps {
  children: ReactNode;
  access?: TAccess;
}

/**
 * The route guard, in this order: signed in, then a chosen password (/setup-password is exempt
 * from onboarding), then onboarding, then the route's own access rule.
 */
export function RequireAuth({ children, access = 'signed-in' }: RequireAuthProps) {
  const { user, isLoading } = useAuth();
  const { pathname } = useLocation();

  if (isLoading) return <PageSpinner label="Checking your sign-in" />;
  if (!user) return <Navigate to="/auth" replace />;
  if (pathname === '/setup-password') {
    return user.firstLogin ? children : <Navigate to="/" replace />;
  }
  if (user.firstLogin) return <Navigate to="/setup-password" replace />;
  if (needsOnboarding(user) && pathname !== '/onboarding') {
    return <Navigate to="/onboarding" replace />;
  }
  // A non-admin is told why, rather than silently sent home.
  if (access === 'admin' && !user.isAdmin) return <AdminsOnlyNotice />;
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
