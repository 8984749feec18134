import { useCallback, useEffect, useRef, useState } from 'react';

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
    const chunks: Blob[] = [];
    const recorder = new MediaRecorder(stream);
    const startedAt = performance.now();
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onstop = () => {
      stopCamera();
      const blob = new Blob(chunks, { type: recorder.mimeType || 'video/webm' });
      setTake({
        id: crypto.randomUUID(),
        blob,
        url: URL.createObjectURL(blob),
        durationMs: performance.now() - startedAt,
      });
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
