import { useCallback, useEffect, useReducer, useRef } from 'react';
import { discardDraft, getDraftBlob, type TDraftRecording } from '@web/lib/videos/local-store';
import { canRecordInThisBrowser } from './camera-errors';
import {
  initialRecorderState,
  recorderReducer,
  type TRecorderEvent,
  type TRecording,
} from './recorder-state';
import { WARNING_BEFORE_END_SECONDS } from './recording-format';
import { repairForPlayback } from '@web/lib/videos/repair-for-playback';
import { useAudioLevel } from './use-audio-level';
import { useCamera } from './use-camera';
import { useRecordingSession } from './use-recording-session';

export type { TRecorderStatus, TRecording } from './recorder-state';
export type { TDraftDetails } from './recording-session';

/**
 * The camera recorder. Every slice MediaRecorder hands over (about a second) is written to the
 * draft in IndexedDB as it arrives, so a reload, crash or closed tab
 * loses at most the last second; the draft becomes the saved video or is discarded. Its states
 * and their rules are `recorderReducer`'s; the hooks here drive the camera, timers and storage.
 */
export function useRecorder({ maxSeconds }: { maxSeconds: number }) {
  const [state, dispatchNow] = useReducer(
    recorderReducer,
    canRecordInThisBrowser(),
    initialRecorderState,
  );
  const { status, stream } = state;
  const audio = useAudioLevel(status === 'recorded' ? null : stream);
  const isMountedRef = useRef(true);
  const previewUrlRef = useRef<string | null>(null);

  // What finishes after the page has gone changes nothing.
  const dispatch = useCallback((event: TRecorderEvent) => {
    if (isMountedRef.current) dispatchNow(event);
  }, []);

  /** The recording with an object URL for its preview; the one before is revoked. */
  const withPreview = useCallback((next: Omit<TRecording, 'url'> | null) => {
    if (previewUrlRef.current) URL.revokeObjectURL(previewUrlRef.current);
    previewUrlRef.current = next ? URL.createObjectURL(next.blob) : null;
    return next && previewUrlRef.current ? { ...next, url: previewUrlRef.current } : null;
  }, []);

  const camera = useCamera(status, dispatch, isMountedRef);
  const { enableCamera, replaceStream, streamRef, turnOff } = camera;
  const session = useRecordingSession({
    ...{ maxSeconds, status, dispatch, replaceStream, audio, withPreview },
    ...{ isMountedRef, streamRef },
  });
  const { abandon } = session;
  const recording = state.status === 'recorded' ? state.recording : null;

  /** Throws the preview away (its draft too) and turns the camera back on. */
  const recordAgain = useCallback(async () => {
    if (recording) await discardDraft(recording.draftId);
    withPreview(null);
    dispatch({ type: 'recording-thrown-away' });
    await enableCamera();
  }, [dispatch, enableCamera, recording, withPreview]);

  /** Opens an interrupted recording (a reload, a crash) as the preview to save. */
  const recover = useCallback(
    async (draft: TDraftRecording) => {
      const captured = await getDraftBlob(draft.id);
      replaceStream(null);
      dispatch({ type: 'draft-read', isEmpty: captured.size === 0 });
      if (captured.size === 0) return discardDraft(draft.id);
      // The last slice written is about a second before the crash: the best length there is.
      const durationMs = Math.max(0, Date.parse(draft.updatedAt) - Date.parse(draft.startedAt));
      const blob = await repairForPlayback(captured, durationMs);
      const recovered = withPreview({
        ...{ draftId: draft.id, blob, durationMs },
        ...{ hasSound: true, wasStoppedAtLimit: false },
      });
      if (recovered) dispatch({ type: 'recorded', recording: recovered });
    },
    [dispatch, replaceStream, withPreview],
  );

  useEffect(() => {
    isMountedRef.current = true;
    return () => {
      // Leaving the page mid-recording keeps the draft: the next visit offers to recover it.
      isMountedRef.current = false;
      abandon();
      turnOff();
      if (previewUrlRef.current) URL.revokeObjectURL(previewUrlRef.current);
    };
  }, [abandon, turnOff]);

  const remainingMs = Math.max(0, maxSeconds * 1000 - state.elapsedMs);
  return {
    status,
    problem: state.problem,
    stream,
    countdown: state.status === 'countdown' ? state.secondsLeft : 0,
    elapsedMs: state.elapsedMs,
    remainingMs,
    isNearLimit: status === 'recording' && remainingMs <= WARNING_BEFORE_END_SECONDS * 1000,
    recording,
    isUnprotected: state.isUnprotected,
    audioLevel: audio.level,
    devices: camera.devices,
    enableCamera,
    start: session.start,
    cancelCountdown: session.cancelCountdown,
    stop: session.stop,
    recordAgain,
    recover,
    changeCamera: camera.changeCamera,
    changeMicrophone: camera.changeMicrophone,
  };
}

/** What the recorder shows and does, as the Record page's parts receive it. */
export type TRecorder = ReturnType<typeof useRecorder>;
