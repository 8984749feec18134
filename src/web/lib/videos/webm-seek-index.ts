import { BlobReader } from '@shared/blob-reader';
import { concatBytes } from '@shared/sealing/bytes';

/**
 * Gives a recorded WebM a seek index, so a player jumps straight to the right place instead of
 * reading everything before it: seeking to 80 % of a 90-second message read about 80 MB and took
 * 8–9 s without one, sealed or not. Browsers' MediaRecorder writes no index (`Cues`), and the
 * duration repair before this gives the first cluster a size that covers the whole file.
 *
 * The result is the same clusters, byte for byte but for that one size (made "unknown", as the
 * recorder writes every other), with a `SeekHead` before them and the `Cues` after: a cue for
 * each cluster, where the recorder starts one at every keyframe. Anything unexpected gives the
 * recording back as it was: a message without an index plays, only seeks slowly.
 */
export async function addSeekIndex(recording: Blob): Promise<Blob> {
  try {
    const layout = await readLayout(recording);
    return layout ? writeIndexed(recording, layout) : recording;
  } catch {
    return recording;
  }
}

const ID = {
  ebml: 0x1a45dfa3,
  segment: 0x18538067,
  seekHead: 0x114d9b74,
  seek: 0x4dbb,
  seekId: 0x53ab,
  seekPosition: 0x53ac,
  info: 0x1549a966,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  trackType: 0x83,
  cluster: 0x1f43b675,
  timecode: 0xe7,
  cues: 0x1c53bb6b,
  cuePoint: 0xbb,
  cueTime: 0xb3,
  cueTrackPositions: 0xb7,
  cueTrack: 0xf7,
  cueClusterPosition: 0xf1,
} as const;

/** The elements a Segment holds at its top level: any of these ends a cluster of unknown size. */
const TOP_LEVEL = new Set<number>([
  ID.seekHead,
  ID.info,
  ID.tracks,
  ID.cluster,
  ID.cues,
  0x1254c367, // Tags
  0x1941a469, // Attachments
  0x1043a770, // Chapters
]);
const VIDEO_TRACK = 1;
const WINDOW_BYTES = 1024 * 1024;

interface TElement {
  id: number;
  /** Where the element starts, its size field, and its data. */
  start: number;
  sizeAt: number;
  sizeLength: number;
  dataAt: number;
  /** Null when the size is "unknown" (all ones). */
  size: number | null;
}

interface TLayout {
  /** Where the Segment starts, and the elements before the first cluster (Info, Tracks). */
  segmentStart: number;
  head: TElement[];
  clusters: {
    start: number;
    sizeAt: number;
    sizeLength: number;
    declared: number | null;
    timecode: number;
  }[];
  track: number;
}

/**
 * Reads forward through a Blob a window at a time, never jumping (a jump reopens the Blob's
 * stream, which cost tens of milliseconds each), so no more than about a window is held.
 */
class Cursor {
  private window = new Uint8Array(0);
  private windowAt = 0;
  private nextRead = 0;
  private readonly reader: BlobReader;

  constructor(readonly blob: Blob) {
    this.reader = new BlobReader(blob, WINDOW_BYTES);
  }

  /** `length` bytes at `at`, fewer where the Blob ends; good until the next call. */
  async bytes(at: number, length: number): Promise<Uint8Array> {
    if (at < this.windowAt) {
      this.window = new Uint8Array(0);
      this.windowAt = at;
      this.nextRead = at;
    }
    while (at + length > this.windowAt + this.window.length && this.nextRead < this.blob.size) {
      const keepFrom = Math.min(at - this.windowAt, this.window.length);
      const read = await this.reader.read(this.nextRead, this.nextRead + WINDOW_BYTES);
      const kept = this.window.length - keepFrom;
      const merged = new Uint8Array(kept + read.length);
      merged.set(this.window.subarray(keepFrom));
      merged.set(read, kept);
      this.windowAt += keepFrom;
      this.window = merged;
      this.nextRead += read.length;
    }
    return this.window.subarray(at - this.windowAt, at - this.windowAt + length);
  }

  close() {
    this.reader.close();
  }

  /** The element whose header starts at `at`, or null past the end or on bytes that are not one. */
  async element(at: number): Promise<TElement | null> {
    const head = await this.bytes(at, 12);
    const id = readVint(head, 0, true);
    if (!id || id.length > 4) return null;
    const size = readVint(head, id.length, false);
    if (!size) return null;
    const sizeAt = at + id.length;
    return {
      id: id.value,
      start: at,
      sizeAt,
      sizeLength: size.length,
      dataAt: sizeAt + size.length,
      size: size.isUnknown ? null : size.value,
    };
  }
}

function readVint(bytes: Uint8Array, at: number, keepMarker: boolean) {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  let length = 1;
  while (!(first & (0x80 >> (length - 1)))) length += 1;
  if (at + length > bytes.length) return null;
  const marker = 0x80 >> (length - 1);
  let value = keepMarker ? first : first & (marker - 1);
  let isUnknown = (first & (marker - 1)) === marker - 1;
  for (let i = 1; i < length; i += 1) {
    value = value * 256 + bytes[at + i]!;
    if (bytes[at + i] !== 0xff) isUnknown = false;
  }
  return { value, length, isUnknown: !keepMarker && isUnknown };
}

async function readUint(cursor: Cursor, element: TElement): Promise<number> {
  const bytes = await cursor.bytes(element.dataAt, element.size ?? 0);
  return bytes.reduce((value, byte) => value * 256 + byte, 0);
}

/** The first video track's number (the recorder's is 1), from the Tracks element. */
async function videoTrack(cursor: Cursor, tracks: TElement): Promise<number> {
  const end = tracks.dataAt + (tracks.size ?? 0);
  let first: number | null = null;
  for (let at = tracks.dataAt; at < end;) {
    const entry = await cursor.element(at);
    if (!entry || entry.size === null) break;
    if (entry.id === ID.trackEntry) {
      let number: number | null = null;
      let type: number | null = null;
      for (let inner = entry.dataAt; inner < entry.dataAt + entry.size;) {
        const field = await cursor.element(inner);
        if (!field || field.size === null) break;
        if (field.id === ID.trackNumber) number = await readUint(cursor, field);
        if (field.id === ID.trackType) type = await readUint(cursor, field);
        inner = field.dataAt + field.size;
      }
      if (number !== null && type === VIDEO_TRACK) return number;
      first ??= number;
    }
    at = entry.dataAt + entry.size;
  }
  if (first === null) throw new Error('no track');
  return first;
}

/** Where everything is, or null for a file that already has an index or is not as expected. */
async function readLayout(blob: Blob): Promise<TLayout | null> {
  const cursor = new Cursor(blob);
  try {
    const ebml = await cursor.element(0);
    if (!ebml || ebml.id !== ID.ebml || ebml.size === null) return null;
    const segment = await cursor.element(ebml.dataAt + ebml.size);
    if (!segment || segment.id !== ID.segment) return null;
    const head: TElement[] = [];
    let at = segment.dataAt;
    let element = await cursor.element(at);
    while (element && element.id !== ID.cluster) {
      // Already indexed, or something this does not know how to carry over.
      if (element.id === ID.cues || element.id === ID.seekHead || element.size === null)
        return null;
      head.push(element);
      at = element.dataAt + element.size;
      element = await cursor.element(at);
    }
    const tracks = head.find((item) => item.id === ID.tracks);
    if (!element || !tracks) return null;
    const track = await videoTrack(cursor, tracks);

    const clusters: TLayout['clusters'] = [];
    while (element && element.id === ID.cluster) {
      // Walked child by child whatever size it declares (the repair's first one is wrong).
      let timecode: number | null = null;
      let inner = element.dataAt;
      let child = await cursor.element(inner);
      while (child && !TOP_LEVEL.has(child.id)) {
        if (child.size === null) return null;
        if (child.id === ID.timecode) timecode = await readUint(cursor, child);
        inner = child.dataAt + child.size;
        if (inner > blob.size) return null;
        child = inner < blob.size ? await cursor.element(inner) : null;
      }
      if (timecode === null) return null;
      const last = clusters.at(-1);
      if (last && timecode < last.timecode) return null;
      clusters.push({
        start: element.start,
        sizeAt: element.sizeAt,
        sizeLength: element.sizeLength,
        declared: element.size,
        timecode,
      });
      at = inner;
      element = child;
    }
    // The clusters run to the end: anything after them (tags, say) would not be carried over.
    if (at !== blob.size) return null;
    return {
      segmentStart: segment.start,
      head,
      clusters,
      track,
    };
  } finally {
    cursor.close();
  }
}

/** An EBML element: its id, its size in eight bytes (always room), its data. */
function element(id: number, ...children: Uint8Array<ArrayBuffer>[]): Uint8Array<ArrayBuffer> {
  const idBytes = uintBytes(id, id > 0xffffff ? 4 : id > 0xffff ? 3 : id > 0xff ? 2 : 1);
  const size = children.reduce((sum, child) => sum + child.length, 0);
  return concatBytes(idBytes, sizeBytes(size), ...children);
}

function sizeBytes(size: number): Uint8Array<ArrayBuffer> {
  const bytes = uintBytes(size, 8);
  bytes[0] = 0x01;
  return bytes;
}

function uintBytes(value: number, length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let i = length - 1, rest = value; i >= 0; i -= 1, rest = Math.floor(rest / 256)) {
    bytes[i] = rest % 256;
  }
  return bytes;
}

function uintElement(id: number, value: number, length = 8): Uint8Array<ArrayBuffer> {
  return element(id, uintBytes(value, length));
}

/** An "unknown" size of `length` bytes: the marker bit, then all ones. */
function unknownSize(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length).fill(0xff);
  bytes[0] = (0x80 >> (length - 1)) | ((0x80 >> (length - 1)) - 1);
  return bytes;
}

function writeIndexed(blob: Blob, layout: TLayout): Blob {
  const seekEntry = (id: number, position: number) =>
    element(ID.seek, element(ID.seekId, uintBytes(id, 4)), uintElement(ID.seekPosition, position));
  // The SeekHead's size does not depend on the positions in it (eight bytes each).
  const seekHeadLength = element(
    ID.seekHead,
    seekEntry(0, 0),
    seekEntry(0, 0),
    seekEntry(0, 0),
  ).length;
  const headLength = layout.head.reduce(
    (sum, item) => sum + (item.dataAt - item.start) + item.size!,
    0,
  );
  const firstCluster = layout.clusters[0]!.start;
  const clustersLength = blob.size - firstCluster;
  // Positions count from the start of the Segment's data, where the SeekHead now is.
  const moved = (offset: number) => offset - firstCluster + seekHeadLength + headLength;
  const cues = element(
    ID.cues,
    ...layout.clusters.map((cluster) =>
      element(
        ID.cuePoint,
        uintElement(ID.cueTime, cluster.timecode),
        element(
          ID.cueTrackPositions,
          uintElement(ID.cueTrack, layout.track, 1),
          uintElement(ID.cueClusterPosition, moved(cluster.start)),
        ),
      ),
    ),
  );
  const positionOf = (id: number) => {
    let offset = seekHeadLength;
    for (const item of layout.head) {
      if (item.id === id) return offset;
      offset += item.dataAt - item.start + item.size!;
    }
    return null;
  };
  const entries: Uint8Array<ArrayBuffer>[] = [];
  for (const id of [ID.info, ID.tracks]) {
    const position = positionOf(id);
    if (position !== null) entries.push(seekEntry(id, position));
  }
  entries.push(seekEntry(ID.cues, seekHeadLength + headLength + clustersLength));
  // A Void in place of a missing entry keeps the length worked out above.
  while (entries.length < 3) entries.unshift(element(0xec, new Uint8Array(entries[0]!.length - 9)));
  const seekHead = element(ID.seekHead, ...entries);
  if (seekHead.length !== seekHeadLength) throw new Error('seek head length');

  const segmentSize = seekHeadLength + headLength + clustersLength + cues.length;
  const parts: BlobPart[] = [
    blob.slice(0, layout.segmentStart),
    concatBytes(uintBytes(ID.segment, 4), sizeBytes(segmentSize)),
    seekHead,
    ...layout.head.map((item) => blob.slice(item.start, item.dataAt + item.size!)),
  ];
  // Each cluster as it is, but a declared size that is not its own becomes "unknown".
  for (const [index, cluster] of layout.clusters.entries()) {
    const end = layout.clusters[index + 1]?.start ?? blob.size;
    const own = end - (cluster.sizeAt + cluster.sizeLength);
    if (cluster.declared === null || cluster.declared === own) {
      parts.push(blob.slice(cluster.start, end));
    } else {
      parts.push(
        blob.slice(cluster.start, cluster.sizeAt),
        unknownSize(cluster.sizeLength),
        blob.slice(cluster.sizeAt + cluster.sizeLength, end),
      );
    }
  }
  parts.push(cues);
  return new Blob(parts, { type: blob.type });
}
