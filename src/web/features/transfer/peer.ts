import type { TIceServer } from '@shared/schemas/transfers';
import type { TSignalling } from './transfer-api';

/** How long two devices try to reach each other before saying they cannot. */
export const CONNECT_TIMEOUT_MS = 20_000;
export const POLL_MS = 1_000;
/**
 * The new device, its offer written, asks for the answer this often: the old device answers
 * within a second of seeing it, and this wait is part of every connection (at most 80 asks).
 */
const ANSWER_POLL_MS = 250;
/** Gathering waits at most this long for slow STUN servers, then sends what it has. */
const GATHER_LIMIT_MS = 5_000;

export class CannotConnectError extends Error {
  constructor() {
    super('The two devices could not reach each other.');
  }
}

export const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The full description, candidates included: one message each way, no trickling. */
async function gathered(pc: RTCPeerConnection): Promise<string> {
  if (pc.iceGatheringState !== 'complete') {
    await Promise.race([
      new Promise<void>((resolve) => {
        pc.addEventListener('icegatheringstatechange', () => {
          if (pc.iceGatheringState === 'complete') resolve();
        });
      }),
      wait(GATHER_LIMIT_MS),
    ]);
  }
  return JSON.stringify(pc.localDescription);
}

function opened(channel: RTCDataChannel, deadline: number): Promise<void> {
  if (channel.readyState === 'open') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new CannotConnectError()), deadline - Date.now());
    channel.addEventListener('open', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export interface TPeer {
  pc: RTCPeerConnection;
  channel: RTCDataChannel;
  /**
   * The channel's messages, listened for from the moment the channel exists: the other side may
   * send as soon as it opens, and a message with no listener yet is gone.
   */
  inbox: TInbox;
  attempt: number;
}

/** The new device starts an attempt: its offer, then the old device's answer, then the channel. */
export async function connectAsReceiver(
  signalling: TSignalling,
  iceServers: TIceServer[],
): Promise<TPeer> {
  const pc = new RTCPeerConnection({ iceServers });
  const channel = pc.createDataChannel('messages', { ordered: true });
  channel.binaryType = 'arraybuffer';
  const inbox = createInbox(channel);
  try {
    await pc.setLocalDescription(await pc.createOffer());
    const { attempt } = await signalling.write({ description: await gathered(pc) });
    const deadline = Date.now() + CONNECT_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const signal = await signalling.read();
      if (signal.attempt !== attempt) break;
      if (signal.description) {
        await pc.setRemoteDescription(JSON.parse(signal.description) as RTCSessionDescriptionInit);
        await opened(channel, deadline);
        return { pc, channel, inbox, attempt };
      }
      await wait(ANSWER_POLL_MS);
    }
    throw new CannotConnectError();
  } catch (error) {
    pc.close();
    throw error;
  }
}

/** The old device answers the attempt `offer` belongs to and waits for the channel. */
export async function connectAsSender(
  signalling: TSignalling,
  iceServers: TIceServer[],
  offer: { attempt: number; description: string },
): Promise<TPeer> {
  const pc = new RTCPeerConnection({ iceServers });
  const channelReady = new Promise<{ channel: RTCDataChannel; inbox: TInbox }>((resolve) => {
    pc.addEventListener('datachannel', (event) => {
      event.channel.binaryType = 'arraybuffer';
      resolve({ channel: event.channel, inbox: createInbox(event.channel) });
    });
  });
  try {
    await pc.setRemoteDescription(JSON.parse(offer.description) as RTCSessionDescriptionInit);
    await pc.setLocalDescription(await pc.createAnswer());
    await signalling.write({ attempt: offer.attempt, description: await gathered(pc) });
    const deadline = Date.now() + CONNECT_TIMEOUT_MS;
    const { channel, inbox } = await Promise.race([
      channelReady,
      wait(CONNECT_TIMEOUT_MS).then(() => {
        throw new CannotConnectError();
      }),
    ]);
    await opened(channel, deadline);
    return { pc, channel, inbox, attempt: offer.attempt };
  } catch (error) {
    pc.close();
    throw error;
  }
}

/** The channel's messages one at a time; `next` rejects once the channel closes or `close` is called. */
function createInbox(channel: RTCDataChannel) {
  const queue: ArrayBuffer[] = [];
  let waiting: { resolve: (data: ArrayBuffer) => void; reject: (error: Error) => void } | null =
    null;
  let isClosed = false;
  channel.addEventListener('message', (event: MessageEvent<ArrayBuffer>) => {
    if (waiting) {
      waiting.resolve(event.data);
      waiting = null;
    } else queue.push(event.data);
  });
  const close = () => {
    isClosed = true;
    waiting?.reject(new Error('The connection was lost.'));
    waiting = null;
  };
  channel.addEventListener('close', close);
  channel.addEventListener('error', close);
  return {
    /**
     * The next message. With `silenceMs`, a wait longer than that ends the connection: a peer that
     * stopped answering without closing would otherwise hold this side for ever.
     */
    next(silenceMs?: number): Promise<ArrayBuffer> {
      const data = queue.shift();
      if (data) return Promise.resolve(data);
      if (isClosed) return Promise.reject(new Error('The connection was lost.'));
      return new Promise((resolve, reject) => {
        const timer = silenceMs === undefined ? undefined : setTimeout(() => close(), silenceMs);
        waiting = {
          resolve: (message) => {
            clearTimeout(timer);
            resolve(message);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
      });
    },
    /** Ends the wait: a channel whose other end vanished may never say 'close'. */
    close,
  };
}
export type TInbox = ReturnType<typeof createInbox>;

/** Sending waits while more than this is queued in the browser's buffer... */
export const SEND_HIGH_WATER_BYTES = 1024 * 1024;
/** ...and carries on as soon as it has drained to this. */
export const SEND_LOW_WATER_BYTES = 256 * 1024;

/**
 * Sends without filling the browser's buffer: above the high-water mark it waits for the channel
 * to say it drained to the low one (no timer: a busy tablet sends as soon as it can). `abort`
 * ends the wait: a channel whose other end vanished may stay 'closing' and never drain.
 */
export async function sendPaced(
  channel: RTCDataChannel,
  data: ArrayBuffer,
  abort?: AbortSignal,
): Promise<void> {
  // A channel that closed before this call says 'close' no more: waiting on it would never end.
  if (channel.readyState !== 'open' || abort?.aborted) {
    throw new Error('The connection was lost.');
  }
  if (channel.bufferedAmount > SEND_HIGH_WATER_BYTES) {
    channel.bufferedAmountLowThreshold = SEND_LOW_WATER_BYTES;
    await new Promise<void>((resolve, reject) => {
      const stop = () => {
        channel.removeEventListener('bufferedamountlow', done);
        channel.removeEventListener('close', lost);
        abort?.removeEventListener('abort', lost);
      };
      const done = () => {
        stop();
        resolve();
      };
      const lost = () => {
        stop();
        reject(new Error('The connection was lost.'));
      };
      channel.addEventListener('bufferedamountlow', done);
      channel.addEventListener('close', lost);
      abort?.addEventListener('abort', lost);
    });
  }
  if (channel.readyState !== 'open') throw new Error('The connection was lost.');
  channel.send(data);
}
