import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addSeekIndex } from '@web/lib/videos/webm-seek-index';

// A recording gets a seek index when it is saved, so a daughter jumping to the end of a long
// message waits for that part only. The fixture is Chromium's MediaRecorder output (8 s, three
// clusters, one a keyframe) after the duration repair the app runs first.

const recorded = readFileSync(path.join(import.meta.dirname, 'fixtures/recorded-8s.webm'));

/** One EBML element's id, size (null if unknown) and where its data starts. */
function readElement(bytes: Uint8Array, at: number) {
  const vint = (from: number, keepMarker: boolean) => {
    const first = bytes[from]!;
    let length = 1;
    while (!(first & (0x80 >> (length - 1)))) length += 1;
    const marker = 0x80 >> (length - 1);
    let value = keepMarker ? first : first & (marker - 1);
    let allOnes = (first & (marker - 1)) === marker - 1;
    for (let i = 1; i < length; i += 1) {
      value = value * 256 + bytes[from + i]!;
      if (bytes[from + i] !== 0xff) allOnes = false;
    }
    return { value, length, allOnes };
  };
  const id = vint(at, true);
  const size = vint(at + id.length, false);
  return {
    id: id.value,
    size: size.allOnes ? null : size.value,
    dataAt: at + id.length + size.length,
  };
}

function children(bytes: Uint8Array, from: number, to: number) {
  const found: { id: number; at: number; size: number; dataAt: number }[] = [];
  for (let at = from; at < to;) {
    const element = readElement(bytes, at);
    found.push({ id: element.id, at, size: element.size!, dataAt: element.dataAt });
    at = element.dataAt + element.size!;
  }
  return found;
}

const uint = (bytes: Uint8Array, at: number, size: number) =>
  bytes.subarray(at, at + size).reduce((value, byte) => value * 256 + byte, 0);

const CLUSTER = 0x1f43b675;
const CUES = 0x1c53bb6b;

describe('a seek index for a recorded WebM', () => {
  it('adds a SeekHead and Cues that point at every cluster, and keeps every cluster byte', async () => {
    const indexed = new Uint8Array(
      await (await addSeekIndex(new Blob([recorded], { type: 'video/webm' }))).arrayBuffer(),
    );
    const ebml = readElement(indexed, 0);
    const segmentAt = ebml.dataAt + ebml.size!;
    expect(
      Buffer.from(indexed.subarray(0, segmentAt)).equals(recorded.subarray(0, segmentAt)),
    ).toBe(true);
    const segment = readElement(indexed, segmentAt);
    expect(segment.id).toBe(0x18538067);
    expect(segment.size).toBe(indexed.length - segment.dataAt);

    // The SeekHead comes first; each of its entries names the element found where it points.
    const top = readElement(indexed, segment.dataAt);
    expect(top.id).toBe(0x114d9b74);
    const pointed = children(indexed, top.dataAt, top.dataAt + top.size!).map((seek) => {
      const [id, position] = children(indexed, seek.dataAt, seek.dataAt + seek.size);
      return {
        named: uint(indexed, id!.dataAt, id!.size),
        found: readElement(
          indexed,
          segment.dataAt + uint(indexed, position!.dataAt, position!.size),
        ).id,
      };
    });
    expect(pointed.map((entry) => entry.named)).toEqual([0x1549a966, 0x1654ae6b, CUES]);
    expect(pointed.every((entry) => entry.named === entry.found)).toBe(true);

    // One cue a cluster, in time order, each at a cluster whose own time it carries.
    const lastTop = (() => {
      let at = segment.dataAt;
      let last = at;
      while (at < indexed.length) {
        last = at;
        const element = readElement(indexed, at);
        if (element.size === null) {
          // A cluster of unknown size: walk its children to the next top-level element.
          let inner = element.dataAt;
          for (;;) {
            const child = readElement(indexed, inner);
            if (child.id === CLUSTER || child.id === CUES) break;
            inner = child.dataAt + child.size!;
          }
          at = inner;
        } else at = element.dataAt + element.size;
      }
      return last;
    })();
    const cues = readElement(indexed, lastTop);
    expect(cues.id).toBe(CUES);
    const points = children(indexed, cues.dataAt, cues.dataAt + cues.size!).map((point) => {
      const [time, positions] = children(indexed, point.dataAt, point.dataAt + point.size);
      const [track, cluster] = children(
        indexed,
        positions!.dataAt,
        positions!.dataAt + positions!.size,
      );
      return {
        time: uint(indexed, time!.dataAt, time!.size),
        track: uint(indexed, track!.dataAt, track!.size),
        clusterAt: segment.dataAt + uint(indexed, cluster!.dataAt, cluster!.size),
      };
    });
    expect(points).toHaveLength(3);
    expect(points.map((point) => point.track)).toEqual([1, 1, 1]);
    for (const [index, point] of points.entries()) {
      const cluster = readElement(indexed, point.clusterAt);
      expect(cluster.id).toBe(CLUSTER);
      const timecode = readElement(indexed, cluster.dataAt);
      expect(timecode.id).toBe(0xe7);
      expect(uint(indexed, timecode.dataAt, timecode.size!)).toBe(point.time);
      if (index > 0) expect(point.time).toBeGreaterThan(points[index - 1]!.time);
    }

    // The clusters are the recording's, but the first one's wrong size is now "unknown".
    const firstInRecording = recorded.indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75]));
    const clusters = indexed.subarray(points[0]!.clusterAt, lastTop);
    const original = recorded.subarray(firstInRecording);
    expect(clusters.length).toBe(original.length);
    const differing = clusters.reduce(
      (count, byte, at) => count + (byte === original[at] ? 0 : 1),
      0,
    );
    expect(differing).toBeLessThanOrEqual(8);
    expect(readElement(indexed, points[0]!.clusterAt).size).toBeNull();
  });

  it('leaves an indexed recording, a cut-off one and bytes that are no WebM as they are', async () => {
    const indexed = await addSeekIndex(new Blob([recorded], { type: 'video/webm' }));
    expect(await addSeekIndex(indexed)).toBe(indexed);
    const cut = new Blob([recorded.subarray(0, recorded.length - 1000)], { type: 'video/webm' });
    expect(await addSeekIndex(cut)).toBe(cut);
    const noise = new Blob([new Uint8Array(5000).fill(7)], { type: 'video/webm' });
    expect(await addSeekIndex(noise)).toBe(noise);
  });
});
