// The browser tests' camera: a one-second loop at 640 × 360 and 10 frames a second, played by
// Chromium's fake capture device from a Y4M file written here.
// Chromium's built-in fake camera answers the app's request for 1280 × 720 at 20 frames a
// second, and encoding that cost the minute-long recording test much of its CPU
// (docs/benchmarks.md, 'CI time'). The app takes whatever size the camera gives (only `ideal`
// constraints), so nothing it does changes.
// `npm run bench:recording` keeps the built-in camera: it measures a full-size recording.
import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WIDTH = 640;
const HEIGHT = 360;
const FRAMES = 10;
const HEADER = `YUV4MPEG2 W${WIDTH} H${HEIGHT} F${FRAMES}:1 Ip A1:1 C420jpeg\n`;
const FRAME_HEADER = 'FRAME\n';
const LUMA = WIDTH * HEIGHT;
const CHROMA = LUMA / 4;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Where the file is; Chromium shows this path as the camera's name. */
export const FAKE_CAMERA_FILE = path.join(root, '.tmp', `fake-camera-${WIDTH}x${HEIGHT}.y4m`);

const FILE_BYTES = HEADER.length + FRAMES * (FRAME_HEADER.length + LUMA + 2 * CHROMA);

/** A warm grey picture with a light bar that crosses it once a second, so every frame differs. */
function frame(index: number): Buffer {
  const luma = Buffer.alloc(LUMA, 90);
  const barWidth = WIDTH / FRAMES;
  const left = index * barWidth;
  for (let row = 0; row < HEIGHT; row += 1) {
    luma.fill(210, row * WIDTH + left, row * WIDTH + left + barWidth);
  }
  const blue = Buffer.alloc(CHROMA, 118);
  const red = Buffer.alloc(CHROMA, 140);
  return Buffer.concat([Buffer.from(FRAME_HEADER), luma, blue, red]);
}

/**
 * Writes the file unless it is there already, through a temporary name, so that Playwright's
 * runner and workers (each loads the config) never read one half written.
 */
export function ensureFakeCamera(): string {
  if (statSync(FAKE_CAMERA_FILE, { throwIfNoEntry: false })?.size === FILE_BYTES) {
    return FAKE_CAMERA_FILE;
  }
  mkdirSync(path.dirname(FAKE_CAMERA_FILE), { recursive: true });
  const frames = Array.from({ length: FRAMES }, (_, index) => frame(index));
  const partial = `${FAKE_CAMERA_FILE}.${process.pid}`;
  writeFileSync(partial, Buffer.concat([Buffer.from(HEADER), ...frames]));
  renameSync(partial, FAKE_CAMERA_FILE);
  return FAKE_CAMERA_FILE;
}
