import { useCallback, useRef, type RefObject } from 'react';
import { discardDraft } from '@web/lib/videos/local-store';
import type { TRecorderEvent, TRecorderStatus, TRecording } from './recorder-state';
import { COUNTDOWN_SECONDS, STOP_SAFETY_TIMEOUT_MS, timesliceFor } from './recording-format';
import {
  capturedVideo,
  prepareRecording,
  type TActiveRecording,
  type TDraftDetails,
} from './recording-session';
import { repairForPlayback } from '@web/lib/videos/repair-for-playback';

interface TSessionParts {
  maxSeconds: number;
  status: TRecorderStatus;
  dispatch: (event: TRecorderEvent) => void;
  isMountedRef: RefObject<boolean>;
  streamRef: RefObject<MediaStream | null>;
  replaceStream: (next: MediaStream | null) => void;
  audio: { hasHeardSound: () => boolean; resetHeard: () => void };
  withPreview: (next: Omit<TRecording, 'url'>) => TRecording | null;
}

type TTimers = {
  tick?: ReturnType<typeof setInterval>;
  countdown?: ReturnType<typeof setInterval>;
};

/**
 * One recording from the countdown to its preview: the countdown, the MediaRecorder writing each
 * slice to the draft, the clock that stops it at the plan's limit, and the finished video.
 */
export function useRecordingSession(parts: TSessionParts) {
  const { maxSeconds, status, dispatch, isMountedRef, streamRef, replaceStream } = parts;
  const { audio, withPreview } = parts;
  const activeRef = useRef<TActiveRecording | null>(null);
  const timersRef = useRef<TTimers>({});

  const clearTimers = useCallback(() => {
    clearInterval(timersRef.current.tick);
    clearInterval(timersRef.current.countdown);
    timersRef.current = {};
  }, []);

  const finish = useCallback(async () => {
    const active = activeRef.current;
    if (!active || active.isFinished) return;
    active.isFinished = true;
    clearTimeout(active.safetyTimer);
    clearTimers();
    const durationMs = Math.round(performance.now() - active.startedAt);
    await active.writes;
    activeRef.current = null;
    replaceStream(null);
    if (!isMountedRef.current) return;
    const captured = capturedVideo(active);
    if (captured.size === 0) {
      await discardDraft(active.draftId);
      return dispatch({ type: 'nothing-captured' });
    }
    const blob = await repairForPlayback(captured, durationMs);
    if (!isMountedRef.current) return;
    const recording = withPreview({
      draftId: active.draftId,
      blob,
      durationMs,
      hasSound: audio.hasHeardSound(),
      wasStoppedAtLimit: active.wasStoppedAtLimit,
    });
    if (recording) dispatch({ type: 'recorded', recording });
  }, [audio, clearTimers, dispatch, isMountedRef, replaceStream, withPreview]);

  const stop = useCallback(
    (reason: 'person' | 'limit' = 'person') => {
      const active = activeRef.current;
      if (!active || active.isFinished) return;
      active.wasStoppedAtLimit = reason === 'limit';
      clearTimers();
      dispatch({ type: 'stop-requested' });
      if (active.recorder.state !== 'inactive') active.recorder.stop();
      // If 'stop' never arrives (seen on Safari), finish with what was captured.
      active.safetyTimer = setTimeout(() => void finish(), STOP_SAFETY_TIMEOUT_MS);
    },
    [clearTimers, dispatch, finish],
  );

  const beginRecording = useCallback(
    async (details: TDraftDetails) => {
      const stream = streamRef.current;
      if (!stream) return;
      const prepared = await prepareRecording(stream, details, {
        writeFailed: () => dispatch({ type: 'draft-write-failed' }),
        stopped: () => void finish(),
        failed: () => {
          dispatch({ type: 'recording-failed' });
          void finish();
        },
      });
      if ('problem' in prepared) {
        return dispatch({ type: 'recorder-refused', problem: prepared.problem });
      }
      const active = prepared;
      activeRef.current = active;
      audio.resetHeard();
      active.recorder.start(timesliceFor(navigator.userAgent));
      active.startedAt = performance.now();
      dispatch({ type: 'recording-started' });
      timersRef.current.tick = setInterval(() => {
        const elapsedMs = performance.now() - active.startedAt;
        dispatch({ type: 'time-passed', elapsedMs });
        if (elapsedMs >= maxSeconds * 1000) stop('limit');
      }, 200);
    },
    [audio, dispatch, finish, maxSeconds, stop, streamRef],
  );

  /** The 3-second countdown, then recording. `details` says who the draft is for. */
  const start = useCallback(
    (details: TDraftDetails) => {
      if (status !== 'ready' || !streamRef.current) return;
      dispatch({ type: 'countdown-started' });
      let remaining = COUNTDOWN_SECONDS;
      timersRef.current.countdown = setInterval(() => {
        remaining -= 1;
        dispatch({ type: 'countdown-ticked', secondsLeft: remaining });
        if (remaining > 0) return;
        clearInterval(timersRef.current.countdown);
        void beginRecording(details);
      }, 1000);
    },
    [beginRecording, dispatch, status, streamRef],
  );

  const cancelCountdown = useCallback(() => {
    clearInterval(timersRef.current.countdown);
    dispatch({ type: 'countdown-cancelled' });
  }, [dispatch]);

  /** Leaving the page mid-recording: the recorder stops, and its draft waits to be recovered. */
  const abandon = useCallback(() => {
    clearInterval(timersRef.current.tick);
    clearInterval(timersRef.current.countdown);
    const active = activeRef.current;
    if (active && active.recorder.state !== 'inactive') active.recorder.stop();
  }, []);

  return { start, cancelCountdown, stop, abandon };
}
