import { Button } from '@web/components/ui/button';
import { OFFLINE_MESSAGES } from './offline-messages';
import { applyUpdate } from './service-worker';

export default function UpdateReady() {
  return (
    <div
      role="region"
      aria-label={OFFLINE_MESSAGES.updateReady}
      className="fixed inset-x-3 bottom-3 z-40 mx-auto flex max-w-xl flex-wrap items-center justify-between gap-3 rounded-xl border-2 border-primary/30 bg-card p-4 shadow-soft sm:inset-x-6"
    >
      <p className="text-lg font-semibold">{OFFLINE_MESSAGES.updateReady}</p>
      <Button onClick={applyUpdate}>{OFFLINE_MESSAGES.reload}</Button>
    </div>
  );
}
