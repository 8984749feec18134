import { useCallback, useEffect, useRef, useState } from 'react';
import { loadRepairer, repairForPlayback } from '@web/lib/videos/repair-for-playback';

/** One take; its id goes with every try to save it, so a retry never saves it twice. */
export type TTake = { id: string; blob: Blob; url: string; durationMs: number };

/** The camera and one take, held in memory only: both go when the screen does. */
export function useTakeRecorder() {
  const previewRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const [isRecording, setIsRecording] = useState(false);
  const [take, setTake] = useState<TTake | null>(null);

  const stopCamera = useCallback(() => {
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
  }, []);

  useEffect(() => () => stopCamera(), [stopCamera]);
  useEffect(() => () => (take ? URL.revokeObjectURL(take.url) : undefined), [take]);

  /** Throws when the camera cannot start, for the caller to say so. */
  async function start() {
    const stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
    streamRef.current = stream;
    if (previewRef.current) previewRef.current.srcObject = stream;
    // Fetched while the resident records, so the take is ready as soon as they stop.
    void loadRepairer();
    const chunks: Blob[] = [];
    const recorder = new MediaRecorder(stream);
    const startedAt = performance.now();
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onstop = () => {
      stopCamera();
      const durationMs = performance.now() - startedAt;
      const recorded = new Blob(chunks, { type: recorder.mimeType || 'video/webm' });
      // With its length and a seek index, as the Record page saves a message.
      void repairForPlayback(recorded, durationMs).then((blob) =>
        setTake({ id: crypto.randomUUID(), blob, url: URL.createObjectURL(blob), durationMs }),
      );
    };
    recorderRef.current = recorder;
    recorder.start(1000);
    setIsRecording(true);
  }

  function stop() {
    recorderRef.current?.stop();
    setIsRecording(false);
  }

  return { previewRef, isRecording, take, clearTake: () => setTake(null), start, stop };
}
