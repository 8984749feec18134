import { useCallback, useEffect, useState } from 'react';

const CAMERA_KEY = 'recorder.cameraId';
const MICROPHONE_KEY = 'recorder.microphoneId';

export interface TMediaDeviceOption {
  deviceId: string;
  label: string;
}

function readChoice(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function saveChoice(key: string, deviceId: string) {
  try {
    localStorage.setItem(key, deviceId);
  } catch {
    // Private browsing may refuse storage; the choice then lasts for this visit only.
  }
}

function toOptions(devices: MediaDeviceInfo[], kind: MediaDeviceKind, fallback: string) {
  return devices
    .filter((device) => device.kind === kind && device.deviceId !== '')
    .map((device, index) => ({
      deviceId: device.deviceId,
      label: device.label || `${fallback} ${index + 1}`,
    }));
}

/**
 * The cameras and microphones this browser offers, and the person's choice of each, remembered
 * on this device. Labels appear only once the camera has been allowed, so `refresh` is called
 * again after the first successful getUserMedia.
 */
export function useMediaDevices() {
  const [cameras, setCameras] = useState<TMediaDeviceOption[]>([]);
  const [microphones, setMicrophones] = useState<TMediaDeviceOption[]>([]);
  const [cameraId, setCameraIdState] = useState<string | null>(() => readChoice(CAMERA_KEY));
  const [microphoneId, setMicrophoneIdState] = useState<string | null>(() =>
    readChoice(MICROPHONE_KEY),
  );

  const refresh = useCallback(async () => {
    if (!navigator.mediaDevices?.enumerateDevices) return;
    const devices = await navigator.mediaDevices.enumerateDevices();
    const nextCameras = toOptions(devices, 'videoinput', 'Camera');
    const nextMicrophones = toOptions(devices, 'audioinput', 'Microphone');
    setCameras(nextCameras);
    setMicrophones(nextMicrophones);
    // A remembered device that is no longer plugged in is forgotten rather than failing.
    setCameraIdState((current) =>
      current && nextCameras.some((d) => d.deviceId === current) ? current : null,
    );
    setMicrophoneIdState((current) =>
      current && nextMicrophones.some((d) => d.deviceId === current) ? current : null,
    );
  }, []);

  useEffect(() => {
    const devices = navigator.mediaDevices;
    if (!devices?.addEventListener) return;
    const onChange = () => void refresh();
    devices.addEventListener('devicechange', onChange);
    return () => devices.removeEventListener('devicechange', onChange);
  }, [refresh]);

  const setCameraId = useCallback((deviceId: string) => {
    saveChoice(CAMERA_KEY, deviceId);
    setCameraIdState(deviceId);
  }, []);

  const setMicrophoneId = useCallback((deviceId: string) => {
    saveChoice(MICROPHONE_KEY, deviceId);
    setMicrophoneIdState(deviceId);
  }, []);

  return { cameras, microphones, cameraId, microphoneId, setCameraId, setMicrophoneId, refresh };
}
