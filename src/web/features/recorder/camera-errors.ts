/**
 * What went wrong with the camera or the recording, in words a person can act on. The browser's
 * error names are the only thing branched on.
 */
export interface TCameraProblem {
  kind: 'permission' | 'no-camera' | 'in-use' | 'unsupported' | 'no-data' | 'recording';
  title: string;
  message: string;
}

export const CAMERA_PROBLEMS = {
  permission: {
    kind: 'permission',
    title: 'Camera permission denied',
    message:
      'Memento needs your permission to use the camera and microphone. Look for the camera symbol in the address bar at the top of the browser, choose "Allow", then press "Turn On Camera" again. On a phone or tablet, open Settings, find this browser, and switch on Camera and Microphone.',
  },
  'no-camera': {
    kind: 'no-camera',
    title: 'No camera detected',
    message:
      'We could not find a camera on this device. Please connect a camera, or use a phone, tablet or computer that has one.',
  },
  'in-use': {
    kind: 'in-use',
    title: 'Camera in use',
    message:
      'The camera is being used by another app, such as a video call. Please close that app, then press "Turn On Camera" again.',
  },
  unsupported: {
    kind: 'unsupported',
    title: 'Browser not supported',
    message:
      'This browser cannot record video. Please use an up-to-date Chrome, Edge, Firefox or Safari.',
  },
  'no-data': {
    kind: 'no-data',
    title: 'Nothing was recorded',
    message: 'No video data captured. Please try again.',
  },
  recording: {
    kind: 'recording',
    title: 'Recording stopped',
    message: 'Recording error occurred.',
  },
} as const satisfies Record<TCameraProblem['kind'], TCameraProblem>;

export function describeCameraError(error: unknown): TCameraProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return CAMERA_PROBLEMS.permission;
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return CAMERA_PROBLEMS['no-camera'];
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return CAMERA_PROBLEMS['in-use'];
    case 'TypeError':
    case 'NotSupportedError':
      return CAMERA_PROBLEMS.unsupported;
    default:
      return CAMERA_PROBLEMS.recording;
  }
}

export function canRecordInThisBrowser(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    typeof navigator.mediaDevices?.getUserMedia === 'function' &&
    typeof MediaRecorder !== 'undefined'
  );
}
