import { lazy, Suspense, useState } from 'react';
import { useAuth } from '@web/lib/auth-provider';

// The banner's code loads only for an owner whose legacy release is waiting.
const LegacyReleaseBanner = lazy(() => import('./legacy-release-banner'));

/** The waiting-release banner, once there is one; kept after a cancel to say it is done. */
export function LegacyReleaseMount() {
  const { user } = useAuth();
  const [hasShown, setHasShown] = useState(false);
  const isWaiting = user?.category === 'primary' && Boolean(user.legacyRelease);
  if (isWaiting && !hasShown) setHasShown(true);
  if (!isWaiting && !hasShown) return null;
  return (
    <Suspense fallback={null}>
      <LegacyReleaseBanner />
    </Suspense>
  );
}
