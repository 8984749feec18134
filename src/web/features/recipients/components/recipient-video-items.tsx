import type { ComponentType } from 'react';
import { CloudOff, Play } from 'lucide-react';
import type { TRelease } from '@shared/domain/legacy';
import type { TVideoIndexEntry } from '@shared/schemas/videos';
import { Button } from '@web/components/ui/button';
import { Checkbox } from '@web/components/ui/checkbox';
import { lazyDateFormat } from '@web/lib/date-format';
import type { TLocalVideo } from '@web/lib/videos/local-store';

const dateFormat = lazyDateFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Each message's release rule and its 'Change' form, from the legacy feature. */
export type TReleaseControl = ComponentType<{
  videoId: string;
  title: string;
  release: TRelease | undefined;
}>;

interface LocalVideoItemProps {
  video: TLocalVideo;
  isSelected: boolean;
  onSelectedChange: (isOn: boolean) => void;
  onPlay: () => void;
  release: TRelease | undefined;
  releaseControl: TReleaseControl;
}

/** A video kept on this device: select it, play it, see and change when it may be watched. */
export function LocalVideoItem({
  video,
  isSelected,
  onSelectedChange,
  onPlay,
  release,
  releaseControl: MessageRelease,
}: LocalVideoItemProps) {
  return (
    <li className="flex flex-col gap-3 rounded-lg border-2 border-border p-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="flex min-w-0 flex-1 items-start gap-3">
          <Checkbox
            checked={isSelected}
            onCheckedChange={(value) => onSelectedChange(value === true)}
            aria-label={`Select ${video.title}`}
            className="-mt-1.5"
          />
          <div className="flex min-w-0 flex-1 flex-col">
            <span className="font-semibold break-words">{video.title}</span>
            <span className="text-base text-muted-foreground">
              {dateFormat.format(new Date(video.createdAt))} · {formatDuration(video.durationMs)} ·{' '}
              {formatSize(video.byteSize)}
            </span>
          </div>
        </div>
        <Button
          variant="outline"
          onClick={onPlay}
          aria-label={`Play ${video.title}`}
          className="w-full sm:w-auto"
        >
          <Play aria-hidden="true" />
          Play
        </Button>
      </div>
      <MessageRelease videoId={video.id} title={video.title} release={release} />
    </li>
  );
}

/** A video the account knows of that this device does not hold. */
export function MissingVideoItem({ row }: { row: TVideoIndexEntry }) {
  return (
    <li className="flex items-center gap-3 rounded-lg border-2 border-dashed border-destructive/50 p-3">
      <CloudOff className="size-6 shrink-0 text-destructive" aria-hidden="true" />
      <div className="flex flex-col">
        <span className="font-semibold">Not on this device</span>
        <span className="text-base text-muted-foreground">
          Recorded {dateFormat.format(new Date(row.createdAt))} ·{' '}
          {formatDuration(row.metadata.durationMs)}. Restore it from a backup file on the home page.
        </span>
      </div>
    </li>
  );
}
