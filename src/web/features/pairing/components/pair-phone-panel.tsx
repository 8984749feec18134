import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { QrCode, Smartphone, X } from 'lucide-react';
import QRCode from 'qrcode';
import type { TPairingCreated } from '@shared/schemas/pairing';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { describeError } from '@web/lib/api-client';
import { useAuth } from '@web/lib/auth-provider';
import { getAccountKey } from '@web/lib/encryption/device-keys';
import { ENCRYPTION_QUERY_KEY, fetchEncryptionState } from '@web/lib/encryption/encryption-state';
import { makePairingKey } from '@web/lib/encryption/pairing-key';
import { requestCloudSync } from '@web/lib/sync-request';
import {
  cancelPairing,
  createPairing,
  CURRENT_PAIRING_QUERY_KEY,
  useCurrentPairing,
} from '../pairing-api';

function useMinutesLeft(expiresAt: string | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (!expiresAt) return 0;
  return Math.max(0, Math.ceil((new Date(expiresAt).getTime() - now) / 60_000));
}

export const PAIRING_LOCKED_TEXT =
  'Your messages are sealed, and this device is locked. Unlock it on the Enhanced encryption page, then pair your phone.';

/**
 * The pairing's link: with enhanced encryption on, a new pairing key goes with it, wrapped under
 * the account key for the server and whole in the link's fragment for the phone alone.
 */
async function startPairing(
  userId: number,
  readState: () => ReturnType<typeof fetchEncryptionState>,
): Promise<TPairingCreated> {
  if ((await readState()).state !== 'on') return createPairing();
  const accountKey = await getAccountKey(userId);
  if (!accountKey) throw new Error(PAIRING_LOCKED_TEXT);
  const { pairingKey, fragment } = await makePairingKey(accountKey);
  const pairing = await createPairing({ pairingKey });
  return { ...pairing, url: `${pairing.url}&k=${fragment}` };
}

/**
 * The primary device's half of Import from Mobile: a QR code and link that pair a phone for 15
 * minutes, how many videos have arrived, and a way to end it at once.
 */
export function PairPhonePanel() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const current = useCurrentPairing();
  const [created, setCreated] = useState<(TPairingCreated & { qr: string }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const live = current.data?.pairing ?? null;
  const isLive = created !== null && live?.id === created.pairingId;
  const minutesLeft = useMinutesLeft(isLive ? live?.expiresAt : undefined);
  const received = live?.uploadsCount ?? 0;
  // Each video that arrives: the background run seals a phone's sealed video for the owner now.
  useEffect(() => {
    if (received > 0) requestCloudSync();
  }, [received]);

  async function pair() {
    setError(null);
    try {
      const readState = () =>
        queryClient.fetchQuery({
          queryKey: ENCRYPTION_QUERY_KEY,
          queryFn: fetchEncryptionState,
          staleTime: 0,
        });
      const pairing = await startPairing(user?.id ?? 0, readState);
      const qr = await QRCode.toDataURL(pairing.url, { margin: 1, width: 320 });
      setCreated({ ...pairing, qr });
      await queryClient.invalidateQueries({ queryKey: CURRENT_PAIRING_QUERY_KEY });
    } catch (caught) {
      setError(describeError(caught, 'The phone could not be paired. Please try again.'));
    }
  }

  async function cancel() {
    if (!created) return;
    await cancelPairing(created.pairingId).catch(() => undefined);
    setCreated(null);
    await queryClient.invalidateQueries({ queryKey: CURRENT_PAIRING_QUERY_KEY });
  }

  return (
    <Card className="flex flex-col gap-5 p-6 sm:p-8">
      <h2 className="flex items-center gap-3 text-2xl font-bold tracking-tight">
        <QrCode className="size-7 text-primary" aria-hidden="true" />
        Pair your phone
      </h2>
      {error && (
        <Alert variant="destructive" title="Not paired">
          <p>{error}</p>
        </Alert>
      )}
      {isLive && created ? (
        <div className="flex flex-col gap-4">
          <p className="text-lg">
            Point your phone&rsquo;s camera at this code, or open the link on your phone. It works
            for{' '}
            <strong>{minutesLeft === 1 ? '1 more minute' : `${minutesLeft} more minutes`}</strong>{' '}
            and can only send videos to your account.
          </p>
          <img
            src={created.qr}
            alt="QR code that opens Memento's import page on your phone"
            className="size-64 self-center rounded-lg border-2 bg-white p-2 sm:self-start"
          />
          <p className="text-base break-all">
            <a
              href={created.url}
              className="font-semibold text-primary underline underline-offset-4"
            >
              {created.url.split('#')[0]}
            </a>
          </p>
          <p role="status" className="text-lg font-semibold" data-testid="pairing-received">
            {live?.uploadsCount === 1
              ? '1 video received'
              : `${live?.uploadsCount ?? 0} videos received`}
          </p>
          <div>
            <Button variant="outline" onClick={() => void cancel()}>
              <X aria-hidden="true" />
              Cancel pairing
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-col gap-4">
          <p className="text-lg">
            Bring videos you recorded with your phone&rsquo;s own camera into Memento. They go to
            the cloud with the rest of your messages, and appear here on your primary device.
          </p>
          <div>
            <Button size="lg" onClick={() => void pair()}>
              <Smartphone aria-hidden="true" />
              Pair a phone
            </Button>
          </div>
        </div>
      )}
    </Card>
  );
}
