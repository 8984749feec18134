import { useCallback, useEffect, useRef, useState } from 'react';
import fixWebmDuration from 'fix-webm-duration';
import {
  appendDraftChunk,
  discardDraft,
  getDraftBlob,
  startDraft,
  type TDraftRecording,
} from '@web/lib/videos/local-store';
import {
  CAMERA_PROBLEMS,
  canRecordInThisBrowser,
  describeCameraError,
  type TCameraProblem,
} from './camera-errors';
import { isWebm, normaliseVideoType } from '@web/lib/video-format';
import {
  COUNTDOWN_SECONDS,
  pickRecordingMimeType,
  STOP_SAFETY_TIMEOUT_MS,
  timesliceFor,
  WARNING_BEFORE_END_SECONDS,
} from './recording-format';
import { useAudioLevel } from './use-audio-level';
import { useMediaDevices } from './use-media-devices';

/** The recorder's states: idle → camera on → (countdown) → recording → stopping → recorded. */
export type TRecorderStatus =
  'idle' | 'starting' | 'ready' | 'countdown' | 'recording' | 'stopping' | 'recorded';

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

export interface TDraftDetails {
  creatorId: number;
  recipientId: number;
  title: string;
  promptId: string | null;
}

interface TActiveRecording {
  recorder: MediaRecorder;
  draftId: string;
  parts: Blob[];
  writes: Promise<void>;
  startedAt: number;
  isFinished: boolean;
  wasStoppedAtLimit: boolean;
  safetyTimer?: ReturnType<typeof setTimeout>;
}

/** MediaRecorder's WebM has no length or seek index until repaired. */
function repairForPlayback(blob: Blob, durationMs: number): Promise<Blob> {
  return isWebm(blob.type)
    ? fixWebmDuration(blob, durationMs, { logger: false })
    : Promise.resolve(blob);
}

function stopTracks(stream: MediaStream | null) {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/**
 * The camera recorder. Every slice MediaRecorder hands over (about a second) is written to the
 * draft in IndexedDB as it arrives, so a reload, crash or closed tab
 * loses at most the last second; the draft becomes the saved video or is discarded.
 */
export function useRecorder({ maxSeconds }: { maxSeconds: number }) {
  const devices = useMediaDevices();
  const [status, setStatus] = useState<TRecorderStatus>('idle');
  const [problem, setProblem] = useState<TCameraProblem | null>(() =>
    canRecordInThisBrowser() ? null : CAMERA_PROBLEMS.unsupported,
  );
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [countdown, setCountdown] = useState(0);
  const [elapsedMs, setElapsedMs] = useState(0);
  const [recording, setRecordingState] = useState<TRecording | null>(null);
  /** IndexedDB refused a slice (storage full?): the recording is only in memory now. */
  const [isUnprotected, setIsUnprotected] = useState(false);
  const audio = useAudioLevel(status === 'recorded' ? null : stream);

  const streamRef = useRef<MediaStream | null>(null);
  const activeRef = useRef<TActiveRecording | null>(null);
  const timersRef = useRef<{
    tick?: ReturnType<typeof setInterval>;
    countdown?: ReturnType<typeof setInterval>;
  }>({});
  const isMountedRef = useRef(true);
  const previewUrlRef = useRef<string | null>(null);

  const setRecording = useCallback((next: Omit<TRecording, 'url'> | null) => {
    if (previewUrlRef.current) URL.revokeObjectURL(previewUrlRef.current);
    previewUrlRef.current = next ? URL.createObjectURL(next.blob) : null;
    setRecordingState(
      next && previewUrlRef.current ? { ...next, url: previewUrlRef.current } : null,
    );
  }, []);

  const replaceStream = useCallback((next: MediaStream | null) => {
    stopTracks(streamRef.current);
    streamRef.current = next;
    if (isMountedRef.current) setStream(next);
  }, []);

  const clearTimers = useCallback(() => {
    clearInterval(timersRef.current.tick);
    clearInterval(timersRef.current.countdown);
    timersRef.current = {};
  }, []);

  const enableCamera = useCallback(
    async (choice: { cameraId?: string | null; microphoneId?: string | null } = {}) => {
      if (!canRecordInThisBrowser()) {
        setProblem(CAMERA_PROBLEMS.unsupported);
        return;
      }
      const cameraId = choice.cameraId !== undefined ? choice.cameraId : devices.cameraId;
      const microphoneId =
        choice.microphoneId !== undefined ? choice.microphoneId : devices.microphoneId;
      setProblem(null);
      setStatus('starting');
      try {
        const next = await navigator.mediaDevices.getUserMedia({
          video: {
            ...(cameraId ? { deviceId: { exact: cameraId } } : { facingMode: 'user' }),
            width: { ideal: 1280 },
            height: { ideal: 720 },
          },
          audio: {
            ...(microphoneId ? { deviceId: { exact: microphoneId } } : {}),
            echoCancellation: true,
            noiseSuppression: true,
            autoGainControl: true,
          },
        });
        if (!isMountedRef.current) {
          stopTracks(next);
          return;
        }
        replaceStream(next);
        setStatus('ready');
        await devices.refresh();
      } catch (error) {
        replaceStream(null);
        setStatus('idle');
        setProblem(describeCameraError(error));
      }
    },
    [devices, replaceStream],
  );

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
    const type = normaliseVideoType(active.recorder.mimeType || active.parts[0]?.type || '');
    const captured = new Blob(active.parts, { type });
    if (captured.size === 0) {
      await discardDraft(active.draftId);
      setStatus('idle');
      setProblem(CAMERA_PROBLEMS['no-data']);
      return;
    }
    const blob = await repairForPlayback(captured, durationMs);
    if (!isMountedRef.current) return;
    setRecording({
      draftId: active.draftId,
      blob,
      durationMs,
      hasSound: audio.hasHeardSound(),
      wasStoppedAtLimit: active.wasStoppedAtLimit,
    });
    setStatus('recorded');
  }, [audio, clearTimers, replaceStream, setRecording]);

  const stop = useCallback(
    (reason: 'person' | 'limit' = 'person') => {
      const active = activeRef.current;
      if (!active || active.isFinished) return;
      active.wasStoppedAtLimit = reason === 'limit';
      clearTimers();
      setStatus('stopping');
      if (active.recorder.state !== 'inactive') active.recorder.stop();
      // If 'stop' never arrives (seen on Safari), finish with what was captured.
      active.safetyTimer = setTimeout(() => void finish(), STOP_SAFETY_TIMEOUT_MS);
    },
    [clearTimers, finish],
  );

  const beginRecording = useCallback(
    async (details: TDraftDetails) => {
      const current = streamRef.current;
      if (!current) return;
      const mimeType = pickRecordingMimeType(navigator.userAgent, (type) =>
        MediaRecorder.isTypeSupported(type),
      );
      if (!mimeType) {
        setStatus('ready');
        setProblem(CAMERA_PROBLEMS.unsupported);
        return;
      }
      let recorder: MediaRecorder;
      try {
        recorder = new MediaRecorder(current, { mimeType });
      } catch (error) {
        setStatus('ready');
        setProblem(describeCameraError(error));
        return;
      }
      const draft = await startDraft({ id: crypto.randomUUID(), mimeType, ...details });
      const active: TActiveRecording = {
        recorder,
        draftId: draft.id,
        parts: [],
        writes: Promise.resolve(),
        startedAt: performance.now(),
        isFinished: false,
        wasStoppedAtLimit: false,
      };
      activeRef.current = active;
      let index = 0;
      recorder.ondataavailable = (event) => {
        if (event.data.size === 0) return;
        active.parts.push(event.data);
        const chunkIndex = index++;
        active.writes = active.writes
          .then(() => appendDraftChunk(active.draftId, chunkIndex, event.data))
          .catch(() => {
            if (isMountedRef.current) setIsUnprotected(true);
          });
      };
      recorder.onstop = () => void finish();
      recorder.onerror = () => {
        setProblem(CAMERA_PROBLEMS.recording);
        void finish();
      };
      audio.resetHeard();
      setIsUnprotected(false);
      setElapsedMs(0);
      recorder.start(timesliceFor(navigator.userAgent));
      active.startedAt = performance.now();
      setStatus('recording');
      timersRef.current.tick = setInterval(() => {
        const elapsed = performance.now() - active.startedAt;
        setElapsedMs(elapsed);
        if (elapsed >= maxSeconds * 1000) stop('limit');
      }, 200);
    },
    [audio, finish, maxSeconds, stop],
  );

  /** The 3-second countdown, then recording. `details` says who the draft is for. */
  const start = useCallback(
    (details: TDraftDetails) => {
      if (status !== 'ready' || !streamRef.current) return;
      setProblem(null);
      setStatus('countdown');
      setCountdown(COUNTDOWN_SECONDS);
      let remaining = COUNTDOWN_SECONDS;
      timersRef.current.countdown = setInterval(() => {
        remaining -= 1;
        setCountdown(remaining);
        if (remaining > 0) return;
        clearInterval(timersRef.current.countdown);
        void beginRecording(details);
      }, 1000);
    },
    [beginRecording, status],
  );

  const cancelCountdown = useCallback(() => {
    clearInterval(timersRef.current.countdown);
    setStatus('ready');
  }, []);

  /** Throws the preview away (its draft too) and turns the camera back on. */
  const recordAgain = useCallback(async () => {
    if (recording) await discardDraft(recording.draftId);
    setRecording(null);
    setElapsedMs(0);
    await enableCamera();
  }, [enableCamera, recording, setRecording]);

  /** Opens an interrupted recording (a reload, a crash) as the preview to save. */
  const recover = useCallback(
    async (draft: TDraftRecording) => {
      const captured = await getDraftBlob(draft.id);
      replaceStream(null);
      setProblem(captured.size === 0 ? CAMERA_PROBLEMS['no-data'] : null);
      if (captured.size === 0) {
        await discardDraft(draft.id);
        return;
      }
      // The last slice written is about a second before the crash: the best length there is.
      const durationMs = Math.max(0, Date.parse(draft.updatedAt) - Date.parse(draft.startedAt));
      setRecording({
        draftId: draft.id,
        blob: await repairForPlayback(captured, durationMs),
        durationMs,
        hasSound: true,
        wasStoppedAtLimit: false,
      });
      setStatus('recorded');
    },
    [replaceStream, setRecording],
  );

  const changeCamera = useCallback(
    (cameraId: string) => {
      devices.setCameraId(cameraId);
      if (status === 'ready') void enableCamera({ cameraId });
    },
    [devices, enableCamera, status],
  );

  const changeMicrophone = useCallback(
    (microphoneId: string) => {
      devices.setMicrophoneId(microphoneId);
      if (status === 'ready') void enableCamera({ microphoneId });
    },
    [devices, enableCamera, status],
  );

  useEffect(() => {
    isMountedRef.current = true;
    return () => {
      // Leaving the page mid-recording keeps the draft: the next visit offers to recover it.
      isMountedRef.current = false;
      clearInterval(timersRef.current.tick);
      clearInterval(timersRef.current.countdown);
      const active = activeRef.current;
      if (active && active.recorder.state !== 'inactive') active.recorder.stop();
      stopTracks(streamRef.current);
      if (previewUrlRef.current) URL.revokeObjectURL(previewUrlRef.current);
    };
  }, []);

  const remainingMs = Math.max(0, maxSeconds * 1000 - elapsedMs);
  return {
    status,
    problem,
    stream,
    countdown,
    elapsedMs,
    remainingMs,
    isNearLimit: status === 'recording' && remainingMs <= WARNING_BEFORE_END_SECONDS * 1000,
    recording,
    isUnprotected,
    audioLevel: audio.level,
    devices,
    enableCamera,
    start,
    cancelCountdown,
    stop,
    recordAgain,
    recover,
    changeCamera,
    changeMicrophone,
  };
}
