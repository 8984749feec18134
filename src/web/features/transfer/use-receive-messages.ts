import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '@web/lib/api-client';
import { CannotConnectError, connectAsReceiver, type TPeer } from './peer';
import { runReceiveSession, type TReceiveProgress } from './receive-session';
import { claimTransfer, receiverSignalling } from './transfer-api';
import {
  deriveLookup,
  deriveTransferKey,
  isTransferCode,
  normalizeTransferCode,
} from './transfer-code';

export type TReceivePhase =
  'idle' | 'connecting' | 'receiving' | 'interrupted' | 'cannot-connect' | 'done' | 'refused';

export interface TReceiveState {
  phase: TReceivePhase;
  progress: TReceiveProgress;
  error: string | null;
}

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
      const signalling = receiverSignalling(claimed.transferId);
      let peer: TPeer | null = null;
      try {
        peer = await connectAsReceiver(signalling, claimed.iceServers);
        update({ phase: 'receiving' });
        await runReceiveSession({
          peer,
          key: await deriveTransferKey(code),
          transferId: claimed.transferId,
          creatorId,
          signalling,
          onProgress: (progress) => update({ progress }),
        });
        update({ phase: 'done' });
      } catch (error) {
        if (error instanceof CannotConnectError) {
          update({ phase: 'cannot-connect' });
          await signalling.reportFailure('no_connection').catch(() => undefined);
        } else {
          update({ phase: 'interrupted' });
          await signalling.reportFailure('interrupted').catch(() => undefined);
        }
      } finally {
        peer?.pc.close();
      }
    },
    [creatorId, update],
  );

  return { state, receive };
}
