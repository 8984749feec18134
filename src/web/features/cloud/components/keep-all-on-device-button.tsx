import { useState } from 'react';
import { Download } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { toast } from '@web/components/ui/use-toast';
import { describeError } from '@web/lib/api-client';
import type { TFillProgress } from '@web/lib/videos/cloud-fill';
import { describeFill } from './cloud-fill-line';
import type { TLibraryItem } from './library-items';

/**
 * After a downgrade: pulls every message that is only in the cloud onto this device, each checked
 * against its checksum and a sealed one opened here (the same run that fills a new device).
 */
export function KeepAllOnDeviceButton({
  userId,
  items,
}: {
  userId: number;
  items: readonly TLibraryItem[];
}) {
  const [progress, setProgress] = useState<TFillProgress | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const missing = items.filter((item) => item.isInCloud && !item.isOnDevice);

  async function keepAll() {
    setIsBusy(true);
    try {
      // Loaded on the click: most dashboards never need it.
      const { fillFromCloud } = await import('@web/lib/videos/cloud-fill');
      const ended = await fillFromCloud(userId, setProgress);
      // Null: another window of this browser is keeping them, and says so there.
      if (!ended) return;
      if (ended.kept === ended.total) {
        toast({ variant: 'success', title: 'Every message is on this device' });
      } else {
        toast({
          variant: 'destructive',
          title: 'Not every message could be kept',
          description: describeFill(ended).slice(1).join(' '),
        });
      }
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
      {isBusy
        ? `Keeping${progress ? ` ${progress.kept} of ${progress.total}` : ''}…`
        : 'Keep all messages on this device'}
    </Button>
  );
}
