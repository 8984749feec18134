import { useId, useState } from 'react';
import { ArrowRightLeft } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import type { TMoveCredentials } from '@web/lib/auth-api';
import { SendMessagesPanel } from './send-messages-panel';

/**
 * On the old device, signed out because the account moved to the new one before the messages
 * did: they can still go straight across, offered with the password just typed. For a device
 * that keeps messages.
 */
export function SendFromOldDevice({ credentials }: { credentials: TMoveCredentials }) {
  const headingId = useId();
  const [isOpen, setIsOpen] = useState(false);
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-lg border border-border bg-card p-5"
    >
      <h2 id={headingId} className="flex items-center gap-3 text-xl font-bold">
        <ArrowRightLeft className="size-6 shrink-0 text-primary" aria-hidden="true" />
        Messages still on this device
      </h2>
      <p className="text-lg">
        If your account is now on a new device, the messages recorded here can go straight to it,
        without the cloud. They stay on this device too.
      </p>
      {isOpen ? (
        <SendMessagesPanel
          source={{ credentials }}
          fallback={
            <p className="text-lg">
              To make a backup file here, choose &lsquo;Use this device instead&rsquo; above to sign
              in on this device for a while.
            </p>
          }
        />
      ) : (
        <div>
          <Button size="lg" variant="outline" onClick={() => setIsOpen(true)}>
            Send my messages to my new device
          </Button>
        </div>
      )}
    </section>
  );
}
