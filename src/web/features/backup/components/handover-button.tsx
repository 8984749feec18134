import { useId, useState } from 'react';
import { FolderDown } from 'lucide-react';
import type { TRecipient } from '@shared/schemas/recipients';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useAuth } from '@web/features/auth';
import { listVideos } from '@web/features/videos';
import { describeError } from '@web/lib/api-client';
import { downloadFile } from '../download-file';

interface HandoverButtonProps {
  recipient: TRecipient;
  /** Videos for this recipient on this device; none means there is nothing to save. */
  localVideoCount: number;
}

/**
 * 'Save videos for {firstName}': the recipient's videos as plain files with a 'Read me.html', to
 * open on any computer without Memento (decision 016). How a next of kin passes messages on from
 * a Community Edition device.
 */
export function HandoverButton({ recipient, localVideoCount }: HandoverButtonProps) {
  const { user: owner } = useAuth();
  const hintId = useId();
  const [isSaving, setIsSaving] = useState(false);
  const name = recipient.firstName;
  const hasVideos = localVideoCount > 0;

  async function saveVideos() {
    if (!owner) return;
    setIsSaving(true);
    try {
      // The file maker loads with the first press, not with the recipients page.
      const { createHandover, README_FILE } = await import('../create-handover');
      const videos = await listVideos(owner.id, recipient.id);
      const handover = await createHandover({ owner, recipient, videos });
      downloadFile(handover.blob, handover.fileName);
      toast({
        variant: 'success',
        title: `Videos saved for ${name}`,
        description: `Unzip (extract) the downloaded file, then open "${README_FILE}" to watch them on any computer.`,
        duration: 10_000,
      });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'The videos could not be saved',
        description: describeError(error, 'Please try again.'),
      });
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <div className="flex flex-col gap-1">
      <Button
        variant="outline"
        onClick={() => void saveVideos()}
        disabled={!owner || !hasVideos || isSaving}
        aria-describedby={hasVideos ? undefined : hintId}
      >
        {isSaving ? <Spinner className="size-5 border-2" /> : <FolderDown aria-hidden="true" />}
        {isSaving ? 'Preparing videos…' : `Save videos for ${name}`}
      </Button>
      {!hasVideos && (
        <p id={hintId} className="text-base text-muted-foreground">
          No videos for {name} on this device yet.
        </p>
      )}
    </div>
  );
}
