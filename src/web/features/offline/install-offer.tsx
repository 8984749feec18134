import { lazy, Suspense } from 'react';
import { useAfterFirstPaint } from '@web/lib/use-after-first-paint';

const InstallOfferCard = lazy(() => import('./install-offer-card'));

/**
 * The offer to install, loaded after the page has painted: a first visit carries none of it, and
 * Chrome announces that it may install (again on a later page) once the service worker is in.
 */
export function InstallOffer() {
  const isPainted = useAfterFirstPaint();
  if (!isPainted) return null;
  return (
    <Suspense fallback={null}>
      <InstallOfferCard />
    </Suspense>
  );
}
