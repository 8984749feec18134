import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { VIDEO_INDEX_QUERY_KEY } from '@web/lib/videos/videos-api';
import { watchPhoneCopies } from './phone-copies';

/**
 * On a paid owner's other devices (the primary one runs the whole cloud sync): only the sealing of
 * what a phone sent, so a phone's video need not wait for the primary device to be opened.
 */
export default function PhoneCopySealing({ userId }: { userId: number }) {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      watchPhoneCopies(
        userId,
        () => void queryClient.invalidateQueries({ queryKey: VIDEO_INDEX_QUERY_KEY }),
      ),
    [queryClient, userId],
  );
  return null;
}
