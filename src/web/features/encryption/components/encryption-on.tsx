import { useLiveQuery } from 'dexie-react-hooks';
import { CircleCheck, LockKeyhole } from 'lucide-react';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { lazyDateFormat } from '@web/lib/date-format';
import { hasAccountKey } from '@web/lib/encryption/device-keys';
import { NextOfKinUnlock } from './next-of-kin-unlock';
import { RenewPassword } from './renew-password';
import { UnlockDevice } from './unlock-device';

const dateFormat = lazyDateFormat(undefined, { dateStyle: 'long' });

/** Enhanced encryption is on: since when, and whether this device holds the key. */
export function EncryptionOn({
  userId,
  username,
  turnedOnAt,
  isPasswordWrapCurrent,
}: {
  userId: number;
  username: string;
  turnedOnAt: string;
  /** False after a reset, until an unlocked device wraps the key under the new password. */
  isPasswordWrapCurrent: boolean;
}) {
  // Watched, so the page changes by itself once this device is unlocked (here or in another tab).
  const isUnlocked = useLiveQuery(() => hasAccountKey(userId), [userId]);

  return (
    <Card asChild>
      <section aria-labelledby="encryption-on-heading">
        <CardHeader>
          <h2
            id="encryption-on-heading"
            className="flex items-center gap-3 text-2xl font-bold tracking-tight"
          >
            <LockKeyhole className="size-7 shrink-0 text-success" aria-hidden="true" />
            Enhanced encryption is on
          </h2>
          <p className="text-lg" data-testid="encryption-since">
            On since {dateFormat.format(new Date(turnedOnAt))}. Every message sent to the cloud from
            your devices is sealed first, in the browser.
          </p>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          {isUnlocked === true && (
            <p className="flex items-start gap-3 text-lg font-semibold" role="status">
              <CircleCheck className="mt-0.5 size-6 shrink-0 text-success" aria-hidden="true" />
              This device can open and send your sealed messages.
            </p>
          )}
          {isUnlocked === true && !isPasswordWrapCurrent && (
            <RenewPassword userId={userId} username={username} />
          )}
          {isUnlocked === false && <UnlockDevice userId={userId} />}
          {isUnlocked === false && <NextOfKinUnlock userId={userId} />}
          <p className="text-lg text-muted-foreground">
            Your recipients open sealed messages with the cards you make for them on the Recipients
            page. Memento cannot make or resend those codes.
          </p>
        </CardContent>
      </section>
    </Card>
  );
}
