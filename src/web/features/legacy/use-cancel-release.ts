import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { USER_QUERY_KEY } from '@web/lib/auth-api';
import { describeError } from '@web/lib/api-client';
import { cancelRelease, LEGACY_QUERY_KEY } from './legacy-api';

/** 'Cancel this release' from a signed-in screen: the banner and the Legacy release page. */
export function useCancelRelease() {
  const queryClient = useQueryClient();
  const [isCancelling, setIsCancelling] = useState(false);
  const [isCancelled, setIsCancelled] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function cancel() {
    if (isCancelling) return;
    setIsCancelling(true);
    setError(null);
    try {
      queryClient.setQueryData(LEGACY_QUERY_KEY, await cancelRelease());
      setIsCancelled(true);
    } catch (reason) {
      setError(describeError(reason, 'Please try again.'));
    } finally {
      setIsCancelling(false);
      // The banner goes with the user's waiting release; the page reads it afresh too.
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: LEGACY_QUERY_KEY });
    }
  }

  return { cancel: () => void cancel(), isCancelling, isCancelled, error };
}
