import { describe, expect, it } from 'vitest';
import { CAMERA_PROBLEMS } from '@web/features/recorder/camera-errors';
import {
  initialRecorderState,
  recorderReducer,
  type TRecorderEvent,
  type TRecorderState,
  type TRecording,
} from '@web/features/recorder/recorder-state';
import { COUNTDOWN_SECONDS } from '@web/features/recorder/recording-format';

// The recorder's rules without a browser: a stream and a video are only carried, never opened.
const stream = {} as MediaStream;
const recording: TRecording = {
  draftId: 'draft-1',
  blob: {} as Blob,
  url: 'blob:preview',
  durationMs: 4200,
  hasSound: true,
  wasStoppedAtLimit: false,
};

function run(events: TRecorderEvent[], from = initialRecorderState(true)): TRecorderState {
  return events.reduce(recorderReducer, from);
}

const cameraOn: TRecorderEvent[] = [
  { type: 'camera-requested' },
  { type: 'stream-replaced', stream },
  { type: 'camera-on' },
];
const recordingUnderWay: TRecorderEvent[] = [
  ...cameraOn,
  { type: 'countdown-started' },
  { type: 'countdown-ticked', secondsLeft: 0 },
  { type: 'recording-started' },
];

describe('the recorder', () => {
  it('starts idle, with the reason when this browser cannot record', () => {
    expect(initialRecorderState(true)).toMatchObject({ status: 'idle', problem: null });
    expect(initialRecorderState(false).problem).toBe(CAMERA_PROBLEMS.unsupported);
  });

  it('turns the camera on, clearing the last problem', () => {
    const failed = run([{ type: 'camera-failed', problem: CAMERA_PROBLEMS.permission }]);
    expect(failed).toMatchObject({ status: 'idle', problem: CAMERA_PROBLEMS.permission });
    expect(run([{ type: 'camera-requested' }], failed)).toMatchObject({
      status: 'starting',
      problem: null,
    });
    expect(run(cameraOn)).toMatchObject({ status: 'ready', stream, problem: null });
  });

  it('counts down from three only when the camera is ready, and can be cancelled', () => {
    expect(run([{ type: 'countdown-started' }]).status).toBe('idle');
    const counting = run([...cameraOn, { type: 'countdown-started' }]);
    expect(counting).toMatchObject({ status: 'countdown', secondsLeft: COUNTDOWN_SECONDS });
    expect(run([{ type: 'countdown-ticked', secondsLeft: 2 }], counting)).toMatchObject({
      secondsLeft: 2,
    });
    expect(run([{ type: 'countdown-cancelled' }], counting).status).toBe('ready');
    // A tick that arrives after the countdown ended changes nothing.
    const ready = run(cameraOn);
    expect(run([{ type: 'countdown-ticked', secondsLeft: 1 }], ready)).toBe(ready);
  });

  it('goes back to the camera with the reason when the browser refuses to record', () => {
    const refused = run([
      ...cameraOn,
      { type: 'countdown-started' },
      { type: 'recorder-refused', problem: CAMERA_PROBLEMS.unsupported },
    ]);
    expect(refused).toMatchObject({ status: 'ready', problem: CAMERA_PROBLEMS.unsupported });
  });

  it('records from zero, keeps the time, and says when a slice could not be kept safe', () => {
    const before = run([...recordingUnderWay, { type: 'time-passed', elapsedMs: 9000 }]);
    expect(before).toMatchObject({ status: 'recording', elapsedMs: 9000, isUnprotected: false });
    const unsafe = run([{ type: 'draft-write-failed' }], before);
    expect(unsafe.isUnprotected).toBe(true);
    // The next recording starts from nothing again.
    const again = run([{ type: 'recording-started' }], unsafe);
    expect(again).toMatchObject({ elapsedMs: 0, isUnprotected: false });
  });

  it('stops, then shows the recording, or says nothing was captured', () => {
    const stopping = run([...recordingUnderWay, { type: 'stop-requested' }]);
    expect(stopping.status).toBe('stopping');
    expect(run([{ type: 'recorded', recording }], stopping)).toMatchObject({
      status: 'recorded',
      recording,
    });
    expect(run([{ type: 'nothing-captured' }], stopping)).toMatchObject({
      status: 'idle',
      problem: CAMERA_PROBLEMS['no-data'],
    });
  });

  it('keeps a recording error in view while the recording finishes', () => {
    const failed = run([...recordingUnderWay, { type: 'recording-failed' }]);
    expect(failed).toMatchObject({ status: 'recording', problem: CAMERA_PROBLEMS.recording });
    expect(run([{ type: 'recorded', recording }], failed).problem).toBe(CAMERA_PROBLEMS.recording);
  });

  it('throws a recording away and starts the clock again', () => {
    const recorded = run([
      ...recordingUnderWay,
      { type: 'time-passed', elapsedMs: 4200 },
      { type: 'stop-requested' },
      { type: 'stream-replaced', stream: null },
      { type: 'recorded', recording },
    ]);
    const thrownAway = run([{ type: 'recording-thrown-away' }], recorded);
    expect(thrownAway).toMatchObject({ status: 'idle', elapsedMs: 0, stream: null });
    expect('recording' in thrownAway).toBe(false);
  });

  it('opens an interrupted recording, or says its draft held nothing', () => {
    expect(run([{ type: 'draft-read', isEmpty: true }]).problem).toBe(CAMERA_PROBLEMS['no-data']);
    const failed = run([{ type: 'camera-failed', problem: CAMERA_PROBLEMS['in-use'] }]);
    const recovered = run(
      [
        { type: 'draft-read', isEmpty: false },
        { type: 'recorded', recording },
      ],
      failed,
    );
    expect(recovered).toMatchObject({ status: 'recorded', problem: null, recording });
  });
});
