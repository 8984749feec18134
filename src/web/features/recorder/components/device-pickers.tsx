import { useId } from 'react';
import { Label } from '@web/components/ui/label';
import type { TRecorder } from '../use-recorder';

const selectClass =
  'min-h-12 w-full rounded-lg border-2 border-input bg-card px-3 text-base text-foreground';

/** The camera and microphone to record with, changeable while the camera is on and waiting. */
export function DevicePickers({ recorder }: { recorder: TRecorder }) {
  const cameraId = useId();
  const microphoneId = useId();
  const { devices, status } = recorder;
  const isLocked = status !== 'ready';
  if (devices.cameras.length === 0 && devices.microphones.length === 0) return null;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="flex flex-col gap-2">
        <Label htmlFor={cameraId}>Camera</Label>
        <select
          id={cameraId}
          className={selectClass}
          value={devices.cameraId ?? devices.cameras[0]?.deviceId ?? ''}
          onChange={(event) => recorder.changeCamera(event.target.value)}
          disabled={isLocked}
        >
          {devices.cameras.map((camera) => (
            <option key={camera.deviceId} value={camera.deviceId}>
              {camera.label}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={microphoneId}>Microphone</Label>
        <select
          id={microphoneId}
          className={selectClass}
          value={devices.microphoneId ?? devices.microphones[0]?.deviceId ?? ''}
          onChange={(event) => recorder.changeMicrophone(event.target.value)}
          disabled={isLocked}
        >
          {devices.microphones.map((microphone) => (
            <option key={microphone.deviceId} value={microphone.deviceId}>
              {microphone.label}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
