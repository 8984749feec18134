import { useCallback, useEffect, useRef, useState } from 'react';
import QRCode from 'qrcode';
import { TRANSFER_MESSAGES, type TIceServer } from '@shared/schemas/transfers';
import { isApiError } from '@web/lib/api-client';
import type { TMoveCredentials } from '@web/lib/auth-api';
import { listVideos } from '@web/lib/videos/local-store';
import { CannotConnectError, connectAsSender, POLL_MS, wait, type TPeer } from './peer';
import { buildManifest, runSendSession, type TSendProgress } from './send-session';
import {
  createTransferOffer,
  createTransferOfferWithPassword,
  senderSignalling,
  type TSignalling,
} from './transfer-api';
import { createTransferCode, deriveLookup, deriveTransferKey } from './transfer-code';
import type { TManifestVideo } from './transfer-frames';

/**
 * Whose messages go: the signed-in owner's, or, on an old device signed out because the account
 * moved on first, those of the account the password opens.
 */
export type TSendSource = { creatorId: number } | { credentials: TMoveCredentials };

/** The offer for `lookup`, and the messages it sends. */
async function offerFrom(source: TSendSource, lookup: string) {
  if ('creatorId' in source) {
    const videos = await listVideos(source.creatorId);
    return { created: await createTransferOffer(lookup, videos.length), videos };
  }
  const created = await createTransferOfferWithPassword(source.credentials, lookup);
  // The device's library may also hold an earlier account's messages: only this one's go.
  const videos = await listVideos(created.userId);
  if (videos.length === 0) throw new Error(TRANSFER_MESSAGES.noneHere);
  return { created, videos };
}

export type TSendPhase =
  | 'idle'
  | 'preparing'
  | 'waiting'
  | 'connecting'
  | 'sending'
  | 'interrupted'
  | 'cannot-connect'
  | 'done'
  | 'ended'
  | 'failed';

export interface TSendState {
  phase: TSendPhase;
  code: string | null;
  qr: string | null;
  expiresAt: string | null;
  progress: TSendProgress;
  error: string | null;
}

const START: TSendState = {
  phase: 'idle',
  code: null,
  qr: null,
  expiresAt: null,
  progress: { arrived: 0, total: 0, current: 0 },
  error: null,
};

interface TRun {
  signalling: TSignalling;
  iceServers: TIceServer[];
  key: CryptoKey;
  /** Made while the code is shown: hashing a large library takes a while. */
  manifest: Promise<TManifestVideo[]>;
  videos: Awaited<ReturnType<typeof listVideos>>;
}

/**
 * The old device: makes the code, then answers each attempt of the new device and sends what it
 * asks for, until it says every message is there. A new attempt ends the one before.
 */
export function useSendMessages(source: TSendSource) {
  const [state, setState] = useState<TSendState>(START);
  const isStopped = useRef(false);
  const update = useCallback((patch: Partial<TSendState>) => {
    if (!isStopped.current) setState((previous) => ({ ...previous, ...patch }));
  }, []);
  useEffect(() => {
    isStopped.current = false;
    return () => {
      isStopped.current = true;
    };
  }, []);

  const serve = useCallback(
    async (run: TRun) => {
      let answered = 0;
      while (!isStopped.current) {
        const signal = await run.signalling.read().catch((error: unknown) => {
          if (isApiError(error) && error.status === 404) return null;
          return undefined;
        });
        if (signal === null) return update({ phase: 'ended' });
        if (signal?.state === 'finished') return update({ phase: 'done' });
        if (signal && signal.attempt > answered && signal.description) {
          answered = signal.attempt;
          // A library that could not be read ends the move here, said on the screen.
          const manifest = await run.manifest;
          const result = await serveAttempt(
            { ...run, manifest },
            signal.attempt,
            signal.description,
            update,
          );
          if (result === 'done') return update({ phase: 'done' });
        }
        await wait(POLL_MS);
      }
    },
    [update],
  );

  const start = useCallback(async () => {
    update({ ...START, phase: 'preparing' });
    try {
      const code = createTransferCode();
      const { created, videos } = await offerFrom(source, await deriveLookup(code));
      const manifest = buildManifest(videos);
      // Its failure is heard when the new device first asks; until then it waits there.
      manifest.catch(() => undefined);
      const url = `${window.location.origin}/receive-messages#code=${code}`;
      const qr = await QRCode.toDataURL(url, { margin: 1, width: 320 });
      update({
        phase: 'waiting',
        code,
        qr,
        expiresAt: created.expiresAt,
        progress: { arrived: 0, total: videos.length, current: 0 },
      });
      await serve({
        signalling: senderSignalling(created.transferId, created.senderToken),
        iceServers: created.iceServers,
        key: await deriveTransferKey(code),
        manifest,
        videos,
      });
    } catch (error) {
      update({ phase: 'failed', error: error instanceof Error ? error.message : String(error) });
    }
  }, [source, serve, update]);

  return { state, start };
}

async function serveAttempt(
  run: Omit<TRun, 'manifest'> & { manifest: TManifestVideo[] },
  attempt: number,
  description: string,
  update: (patch: Partial<TSendState>) => void,
): Promise<'done' | 'again'> {
  update({ phase: 'connecting' });
  let peer: TPeer | null = null;
  let isWatching = true;
  const abort = new AbortController();
  try {
    peer = await connectAsSender(run.signalling, run.iceServers, { attempt, description });
    update({ phase: 'sending' });
    const current = peer;
    // A new attempt means the new device started again: this connection is over.
    void (async () => {
      while (isWatching) {
        await wait(POLL_MS * 2);
        const signal = await run.signalling.read().catch(() => null);
        if (signal && (signal.attempt !== attempt || signal.state === 'finished')) {
          abort.abort();
          current.channel.close();
          return;
        }
      }
    })();
    await runSendSession({
      ...run,
      peer,
      abort: abort.signal,
      onProgress: (progress) => update({ progress }),
    });
    return 'done';
  } catch (error) {
    if (error instanceof CannotConnectError) {
      update({ phase: 'cannot-connect' });
      await run.signalling.reportFailure('no_connection').catch(() => undefined);
    } else {
      update({ phase: 'interrupted' });
    }
    return 'again';
  } finally {
    isWatching = false;
    peer?.pc.close();
  }
}
