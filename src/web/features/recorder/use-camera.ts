import { useCallback, useRef, type RefObject } from 'react';
import { canRecordInThisBrowser, describeCameraError } from './camera-errors';
import type { TRecorderEvent, TRecorderStatus } from './recorder-state';
import { cameraConstraints, stopTracks } from './recording-session';
import { loadRepairer } from '@web/lib/videos/repair-for-playback';
import { useMediaDevices } from './use-media-devices';

export type TCameraChoice = { cameraId?: string | null; microphoneId?: string | null };

/**
 * The recorder's camera: turned on with the chosen camera and microphone, turned on again when
 * the person picks another while it is on, and stopped when it is replaced. `streamRef` holds the
 * live stream for the recording; the state shows the same stream.
 */
export function useCamera(
  status: TRecorderStatus,
  dispatch: (event: TRecorderEvent) => void,
  isMountedRef: RefObject<boolean>,
) {
  const devices = useMediaDevices();
  const streamRef = useRef<MediaStream | null>(null);

  const replaceStream = useCallback(
    (next: MediaStream | null) => {
      stopTracks(streamRef.current);
      streamRef.current = next;
      dispatch({ type: 'stream-replaced', stream: next });
    },
    [dispatch],
  );

  const enableCamera = useCallback(
    async (choice: TCameraChoice = {}) => {
      if (!canRecordInThisBrowser()) return dispatch({ type: 'unsupported' });
      // What the end of a recording needs, fetched while the camera comes on.
      void loadRepairer();
      dispatch({ type: 'camera-requested' });
      try {
        const next = await navigator.mediaDevices.getUserMedia(
          cameraConstraints(
            choice.cameraId !== undefined ? choice.cameraId : devices.cameraId,
            choice.microphoneId !== undefined ? choice.microphoneId : devices.microphoneId,
          ),
        );
        if (!isMountedRef.current) return stopTracks(next);
        replaceStream(next);
        dispatch({ type: 'camera-on' });
        await devices.refresh();
      } catch (error) {
        replaceStream(null);
        dispatch({ type: 'camera-failed', problem: describeCameraError(error) });
      }
    },
    [devices, dispatch, isMountedRef, replaceStream],
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

  const turnOff = useCallback(() => stopTracks(streamRef.current), []);

  return {
    devices,
    streamRef,
    replaceStream,
    enableCamera,
    changeCamera,
    changeMicrophone,
    turnOff,
  };
}
