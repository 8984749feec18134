import { useEffect, useRef, useState } from 'react';

/** Below this RMS the microphone is taken to be hearing nothing at all. */
const SILENCE_RMS = 0.01;
const UPDATES_PER_SECOND = 12;

/**
 * A live microphone level from 0 to 1 for the meter, and whether any sound has been heard since
 * `resetHeard` was last called (a whole recording of silence means a muted or wrong microphone).
 */
export function useAudioLevel(stream: MediaStream | null) {
  const [level, setLevel] = useState(0);
  const hasHeardRef = useRef(false);

  useEffect(() => {
    if (!stream || stream.getAudioTracks().length === 0 || typeof AudioContext === 'undefined') {
      return;
    }
    const context = new AudioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    context.createMediaStreamSource(stream).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    const timer = setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      const rms = Math.sqrt(sum / samples.length);
      if (rms > SILENCE_RMS) hasHeardRef.current = true;
      // Speech sits around 0.02–0.2 RMS; scale so normal talking fills most of the meter.
      setLevel(Math.min(1, rms * 5));
    }, 1000 / UPDATES_PER_SECOND);
    return () => {
      clearInterval(timer);
      void context.close();
    };
  }, [stream]);

  return {
    level: stream ? level : 0,
    hasHeardSound: () => hasHeardRef.current,
    resetHeard: () => {
      hasHeardRef.current = false;
    },
  };
}
