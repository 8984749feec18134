import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '@web/lib/api-client';
import { CannotConnectError, connectAsReceiver, POLL_MS, wait, type TPeer } from './peer';
import { runReceiveSession, type TReceiveProgress } from './receive-session';
import { claimTransfer, receiverSignalling } from './transfer-api';
import {
  deriveLookup,
  deriveTransferKey,
  isTransferCode,
  normalizeTransferCode,
} from './transfer-code';

export type TReceivePhase =
  | 'idle'
  | 'connecting'
  | 'receiving'
  | 'interrupted'
  | 'cannot-connect'
  | 'done'
  | 'already-here'
  | 'refused';

export interface TReceiveState {
  phase: TReceivePhase;
  progress: TReceiveProgress;
  error: string | null;
}

/** How many connections in a row may be lost before the person is asked to carry on. */
const AUTOMATIC_RESUMES = 3;

export const CODE_FORMAT_MESSAGE = 'The code has 16 letters and numbers, like ABCD-EFGH-JKMN-PQRS';

/** The new device: takes the offer with the code, connects, receives; again resumes. */
export function useReceiveMessages(creatorId: number) {
  const [state, setState] = useState<TReceiveState>({
    phase: 'idle',
    progress: { arrived: 0, total: 0, current: 0 },
    error: null,
  });
  const isStopped = useRef(false);
  useEffect(() => {
    isStopped.current = false;
    return () => {
      isStopped.current = true;
    };
  }, []);
  const update = useCallback((patch: Partial<TReceiveState>) => {
    if (!isStopped.current) setState((previous) => ({ ...previous, ...patch }));
  }, []);

  const receive = useCallback(
    async (typed: string): Promise<void> => {
      const code = normalizeTransferCode(typed);
      if (!isTransferCode(code)) return update({ phase: 'refused', error: CODE_FORMAT_MESSAGE });
      // The code stays in the address, never sent anywhere: a reload resumes.
      window.history.replaceState(null, '', `${window.location.pathname}#code=${code}`);
      update({ phase: 'connecting', error: null });
      let claimed;
      try {
        claimed = await claimTransfer(await deriveLookup(code));
      } catch (error) {
        return update({ phase: 'refused', error: describeError(error, 'Please try again.') });
      }
      if (claimed.isFinished) return update({ phase: 'already-here' });
      const signalling = receiverSignalling(claimed.transferId);
      const key = await deriveTransferKey(code);
      // A lost connection is tried again by itself a few times, from where it stopped, before
      // the person is asked to.
      for (let attempt = 0; !isStopped.current; attempt += 1) {
        if (attempt > 0) update({ phase: 'connecting' });
        let peer: TPeer | null = null;
        try {
          peer = await connectAsReceiver(signalling, claimed.iceServers);
          update({ phase: 'receiving' });
          await runReceiveSession({
            peer,
            key,
            transferId: claimed.transferId,
            creatorId,
            signalling,
            onProgress: (progress) => update({ progress }),
          });
          return update({ phase: 'done' });
        } catch (error) {
          if (error instanceof CannotConnectError) {
            update({ phase: 'cannot-connect' });
            await signalling.reportFailure('no_connection').catch(() => undefined);
            return;
          }
          await signalling.reportFailure('interrupted').catch(() => undefined);
          if (attempt + 1 >= AUTOMATIC_RESUMES) return update({ phase: 'interrupted' });
          await wait(POLL_MS);
        } finally {
          peer?.pc.close();
        }
      }
    },
    [creatorId, update],
  );

  return { state, receive };
}
