import { appendDraftChunk, startDraft } from '@web/lib/videos/local-store';
import { normaliseVideoType } from '@web/lib/video-format';
import { CAMERA_PROBLEMS, describeCameraError, type TCameraProblem } from './camera-errors';
import { pickRecordingMimeType } from './recording-format';

/** Who a recording is for, kept with its draft. */
export interface TDraftDetails {
  creatorId: number;
  recipientId: number;
  title: string;
  promptId: string | null;
}

/** The recording under way: its MediaRecorder, its draft and the slices captured so far. */
export interface TActiveRecording {
  recorder: MediaRecorder;
  draftId: string;
  parts: Blob[];
  writes: Promise<void>;
  startedAt: number;
  isFinished: boolean;
  wasStoppedAtLimit: boolean;
  safetyTimer?: ReturnType<typeof setTimeout>;
}

export function stopTracks(stream: MediaStream | null) {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** The chosen camera and microphone (or the front camera), at up to 720p, voice cleaned up. */
export function cameraConstraints(
  cameraId: string | null,
  microphoneId: string | null,
): MediaStreamConstraints {
  return {
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
  };
}

/** A MediaRecorder on `stream` in the first type this browser records, or why there is none. */
function createMediaRecorder(
  stream: MediaStream,
): { recorder: MediaRecorder; mimeType: string } | { problem: TCameraProblem } {
  const mimeType = pickRecordingMimeType(navigator.userAgent, (type) =>
    MediaRecorder.isTypeSupported(type),
  );
  if (!mimeType) return { problem: CAMERA_PROBLEMS.unsupported };
  try {
    return { recorder: new MediaRecorder(stream, { mimeType }), mimeType };
  } catch (error) {
    return { problem: describeCameraError(error) };
  }
}

/** Each slice, as it arrives, is kept in memory and written to the draft after the one before. */
function keepEachSlice(active: TActiveRecording, onWriteFailed: () => void) {
  let index = 0;
  active.recorder.ondataavailable = (event) => {
    if (event.data.size === 0) return;
    active.parts.push(event.data);
    const chunkIndex = index++;
    active.writes = active.writes
      .then(() => appendDraftChunk(active.draftId, chunkIndex, event.data))
      .catch(onWriteFailed);
  };
}

/** Everything captured, as one video of the type the browser recorded. */
export function capturedVideo(active: TActiveRecording): Blob {
  const type = normaliseVideoType(active.recorder.mimeType || active.parts[0]?.type || '');
  return new Blob(active.parts, { type });
}

/**
 * A recorder on `stream` with a new draft for `details`, ready to start, each slice going to the
 * draft as it arrives; or why this browser cannot record it.
 */
export async function prepareRecording(
  stream: MediaStream,
  details: TDraftDetails,
  on: { writeFailed: () => void; stopped: () => void; failed: () => void },
): Promise<TActiveRecording | { problem: TCameraProblem }> {
  const created = createMediaRecorder(stream);
  if ('problem' in created) return created;
  const { recorder, mimeType } = created;
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
  keepEachSlice(active, on.writeFailed);
  recorder.onstop = on.stopped;
  recorder.onerror = on.failed;
  return active;
}
