import { useState } from 'react';
import { Download } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { toast } from '@web/components/ui/use-toast';
import { saveVideo } from '@web/lib/videos/local-store';
import { fetchPlayback } from '@web/lib/videos/videos-api';
import { describeError } from '@web/lib/api-client';
import type { TLibraryItem } from './library-items';

/** After a downgrade: pulls every message that is only in the cloud onto this device. */
export function KeepAllOnDeviceButton({
  userId,
  items,
}: {
  userId: number;
  items: readonly TLibraryItem[];
}) {
  const [done, setDone] = useState<number | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const missing = items.filter((item) => item.isInCloud && !item.isOnDevice);

  async function keepAll() {
    setIsBusy(true);
    setDone(0);
    try {
      for (const [index, item] of missing.entries()) {
        const playback = await fetchPlayback(item.id);
        const response = await fetch(playback.url, { credentials: 'same-origin' });
        if (!response.ok)
          throw new Error('Failed to load video from server. Please check your connection.');
        await saveVideo({
          id: item.id,
          creatorId: userId,
          recipientId: item.recipientId,
          title: item.title,
          promptId: item.promptId,
          blob: await response.blob(),
          durationMs: item.durationMs,
          createdAt: item.createdAt,
          indexedAt: new Date().toISOString(),
          syncStatus: 'synced',
        });
        setDone(index + 1);
      }
      toast({ variant: 'success', title: 'Every message is on this device' });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Not every message could be kept',
        description: describeError(error, 'Please try again.'),
      });
    } finally {
      setIsBusy(false);
    }
  }

  if (missing.length === 0 && !isBusy) {
    return <p className="font-semibold">Every message is already on this device.</p>;
  }
  return (
    <Button onClick={() => void keepAll()} disabled={isBusy}>
      <Download aria-hidden="true" />
      {isBusy ? `Keeping ${done ?? 0} of ${missing.length}…` : 'Keep all messages on this device'}
    </Button>
  );
}
