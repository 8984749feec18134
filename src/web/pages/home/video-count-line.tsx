import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { Film } from 'lucide-react';
import { afterNextPaint } from '@web/lib/after-paint';
import { cn } from '@web/lib/utils';
import { countVideos } from '@web/lib/videos/local-store';
import { useVideoIndex, VIDEO_INDEX_QUERY_KEY } from '@web/lib/videos/videos-api';

const plural = (count: number) => `${count} video${count === 1 ? '' : 's'}`;

/** The dashboard compares the videos on this device with the server's index. */
export function VideoCountLine({ userId }: { userId: number }) {
  const local = useLiveQuery(() => countVideos(userId), [userId]);
  const { data: index } = useVideoIndex();
  const queryClient = useQueryClient();

  // A video saved while the server could not be reached is announced to the index now. The
  // saving code loads for it once the dashboard is on screen, not with its first screen.
  useEffect(() => {
    void afterNextPaint()
      .then(() => import('@web/lib/videos/index-rows'))
      .then(({ indexPendingVideos }) => indexPendingVideos(userId))
      .then((sent) => {
        if (sent > 0) void queryClient.invalidateQueries({ queryKey: VIDEO_INDEX_QUERY_KEY });
      });
  }, [queryClient, userId]);
  const isCounted = local !== undefined && index !== undefined;
  // Until both counts are in, the line keeps its room, unseen and unread: the page below stays put.
  return (
    <p
      data-testid={isCounted ? 'video-counts' : undefined}
      className={cn(
        'flex items-center gap-2.5 px-1 text-base text-muted-foreground',
        !isCounted && 'invisible',
      )}
    >
      <Film className="size-5 shrink-0" aria-hidden="true" />
      <span>
        On this device: {plural(local ?? 0)} · In your account&rsquo;s index:{' '}
        {plural(index?.length ?? 0)}
      </span>
    </p>
  );
}
