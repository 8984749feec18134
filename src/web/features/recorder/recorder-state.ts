import { CAMERA_PROBLEMS, type TCameraProblem } from './camera-errors';
import { COUNTDOWN_SECONDS } from './recording-format';

/** A finished (or recovered) recording, kept as a draft in IndexedDB until it is saved. */
export interface TRecording {
  draftId: string;
  blob: Blob;
  /** An object URL of `blob` for the preview; revoked when the recording is replaced. */
  url: string;
  durationMs: number;
  /** False when the microphone heard nothing for the whole recording. */
  hasSound: boolean;
  wasStoppedAtLimit: boolean;
}

/** The recorder's states: idle → camera on → (countdown) → recording → stopping → recorded. */
export type TRecorderPhase =
  | { status: 'idle' }
  | { status: 'starting' }
  | { status: 'ready' }
  | { status: 'countdown'; secondsLeft: number }
  | { status: 'recording' }
  | { status: 'stopping' }
  | { status: 'recorded'; recording: TRecording };

export type TRecorderStatus = TRecorderPhase['status'];

/** What the recorder shows in every state: its camera, the last problem, the time recorded. */
export type TRecorderState = TRecorderPhase & {
  stream: MediaStream | null;
  problem: TCameraProblem | null;
  elapsedMs: number;
  /** IndexedDB refused a slice (storage full?): the recording is only in memory now. */
  isUnprotected: boolean;
};

/** What happened to the recorder, from the person, the camera, the timers or the draft store. */
export type TRecorderEvent =
  | { type: 'unsupported' }
  | { type: 'camera-requested' }
  | { type: 'stream-replaced'; stream: MediaStream | null }
  | { type: 'camera-on' }
  | { type: 'camera-failed'; problem: TCameraProblem }
  | { type: 'countdown-started' }
  | { type: 'countdown-ticked'; secondsLeft: number }
  | { type: 'countdown-cancelled' }
  | { type: 'recorder-refused'; problem: TCameraProblem }
  | { type: 'recording-started' }
  | { type: 'time-passed'; elapsedMs: number }
  | { type: 'draft-write-failed' }
  | { type: 'recording-failed' }
  | { type: 'stop-requested' }
  | { type: 'nothing-captured' }
  | { type: 'recorded'; recording: TRecording }
  | { type: 'recording-thrown-away' }
  | { type: 'draft-read'; isEmpty: boolean };

export function initialRecorderState(canRecord: boolean): TRecorderState {
  return {
    status: 'idle',
    stream: null,
    problem: canRecord ? null : CAMERA_PROBLEMS.unsupported,
    elapsedMs: 0,
    isUnprotected: false,
  };
}

/** The state with a new phase, keeping what every state shows. */
function enter(state: TRecorderState, phase: TRecorderPhase): TRecorderState {
  const { stream, problem, elapsedMs, isUnprotected } = state;
  return { stream, problem, elapsedMs, isUnprotected, ...phase };
}

/** The recorder's rules, apart from the camera, timers and storage that the hook drives. */
export function recorderReducer(state: TRecorderState, event: TRecorderEvent): TRecorderState {
  switch (event.type) {
    case 'unsupported':
      return { ...state, problem: CAMERA_PROBLEMS.unsupported };
    case 'camera-requested':
      return { ...enter(state, { status: 'starting' }), problem: null };
    case 'stream-replaced':
      return { ...state, stream: event.stream };
    case 'camera-on':
      return enter(state, { status: 'ready' });
    case 'camera-failed':
      return { ...enter(state, { status: 'idle' }), problem: event.problem };
    case 'countdown-started':
      if (state.status !== 'ready') return state;
      return {
        ...enter(state, { status: 'countdown', secondsLeft: COUNTDOWN_SECONDS }),
        problem: null,
      };
    case 'countdown-ticked':
      if (state.status !== 'countdown') return state;
      return { ...state, secondsLeft: event.secondsLeft };
    case 'countdown-cancelled':
      return enter(state, { status: 'ready' });
    case 'recorder-refused':
      return { ...enter(state, { status: 'ready' }), problem: event.problem };
    case 'recording-started':
      return { ...enter(state, { status: 'recording' }), elapsedMs: 0, isUnprotected: false };
    case 'time-passed':
      return { ...state, elapsedMs: event.elapsedMs };
    case 'draft-write-failed':
      return { ...state, isUnprotected: true };
    case 'recording-failed':
      return { ...state, problem: CAMERA_PROBLEMS.recording };
    case 'stop-requested':
      return enter(state, { status: 'stopping' });
    case 'nothing-captured':
      return { ...enter(state, { status: 'idle' }), problem: CAMERA_PROBLEMS['no-data'] };
    case 'recorded':
      return enter(state, { status: 'recorded', recording: event.recording });
    case 'recording-thrown-away':
      return { ...enter(state, { status: 'idle' }), elapsedMs: 0 };
    case 'draft-read':
      return { ...state, problem: event.isEmpty ? CAMERA_PROBLEMS['no-data'] : null };
  }
}
