import { useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { MonitorSmartphone } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { OFFLINE_MESSAGES } from './offline-messages';
import {
  askToInstall,
  currentInstallOffer,
  dismissInstallOffer,
  subscribeToInstallOffer,
} from './install-signal';

/**
 * Offers to put Memento on the home screen, where the browser allows it: a calm card at the end
 * of the page (it moves nothing above it), never on the Record page, and once per browser.
 */
export default function InstallOfferCard() {
  const offer = useSyncExternalStore(subscribeToInstallOffer, currentInstallOffer, () => null);
  const isRecordPage = useLocation().pathname === '/record';
  if (!offer || isRecordPage) return null;
  return (
    <section
      aria-labelledby="install-offer-title"
      className="mx-auto mt-8 flex w-full max-w-3xl flex-col gap-3 rounded-xl border-2 border-border bg-card p-5 shadow-soft"
    >
      <h2 id="install-offer-title" className="flex items-center gap-2 text-xl font-bold">
        <MonitorSmartphone className="size-6 text-primary" aria-hidden="true" />
        {OFFLINE_MESSAGES.installTitle}
      </h2>
      <p className="text-lg">
        {offer === 'prompt' ? OFFLINE_MESSAGES.installPrompt : OFFLINE_MESSAGES.installAppleHint}
      </p>
      <div className="flex flex-wrap gap-3">
        {offer === 'prompt' && (
          <Button size="lg" onClick={() => void askToInstall()}>
            {OFFLINE_MESSAGES.installButton}
          </Button>
        )}
        <Button size="lg" variant="outline" onClick={dismissInstallOffer}>
          {offer === 'prompt' ? OFFLINE_MESSAGES.installNotNow : OFFLINE_MESSAGES.installGotIt}
        </Button>
      </div>
    </section>
  );
}
