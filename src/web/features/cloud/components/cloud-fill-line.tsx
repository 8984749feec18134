import { Link } from 'react-router';
import { CircleCheck, CloudDownload, LockKeyhole } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import type { TFillProgress } from '@web/lib/videos/cloud-fill';
import { useFillProgress } from '../fill-progress';

const messages = (count: number) => (count === 1 ? '1 message' : `${count} messages`);

/** The words for where bringing the messages here stands. */
export function describeFill(progress: TFillProgress): string[] {
  const { total, kept, locked, failed, state } = progress;
  if (state === 'filling') return [`Bringing your messages to this device: ${kept} of ${total}`];
  if (state === 'paused') {
    return [
      `Bringing your messages to this device: ${kept} of ${total}. Waiting for the connection to come back; it goes on by itself.`,
    ];
  }
  const lines: string[] = [];
  if (total === 0) return lines;
  if (kept === total) {
    lines.push(
      total === 1 ? 'Your message is on this device.' : `All ${total} messages are on this device.`,
    );
  } else {
    lines.push(`${kept} of ${total} messages are on this device.`);
  }
  if (locked > 0) {
    lines.push(
      `${messages(locked)} sealed with enhanced encryption ${locked === 1 ? 'waits' : 'wait'} until you unlock sealed messages on this device on the Enhanced encryption page.`,
    );
  }
  if (failed > 0) {
    lines.push(
      `${messages(failed)} could not be brought here this time. ${failed === 1 ? 'It is' : 'They are'} safe in the cloud, and we will try again next time.`,
    );
  }
  return lines;
}

/**
 * On the dashboard's cloud card: how the account's messages come down from the cloud to a new
 * primary device. A live region that is always there (empty until a run has work), so each
 * change is read out without taking the focus.
 */
export function CloudFillLine() {
  const progress = useFillProgress();
  const isAllHere = progress?.state === 'done' && progress.kept === progress.total;
  const Icon = isAllHere ? CircleCheck : CloudDownload;
  return (
    // Empty, it takes back the card's gap below it.
    <div role="status" className="flex flex-col gap-3 text-lg empty:-mb-4" data-testid="cloud-fill">
      {progress && (
        <>
          {describeFill(progress).map((line) => (
            <p key={line} className="flex items-start gap-3">
              <Icon className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
              {line}
            </p>
          ))}
          {progress.state === 'done' && progress.locked > 0 && (
            <div>
              <Button asChild variant="outline">
                <Link to="/encryption">
                  <LockKeyhole aria-hidden="true" />
                  Unlock on the Enhanced encryption page
                </Link>
              </Button>
            </div>
          )}
        </>
      )}
    </div>
  );
}
