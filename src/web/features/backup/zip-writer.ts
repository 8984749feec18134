import { Zip, ZipPassThrough, strToU8 } from 'fflate';

/** Videos are read and written in slices of this size, so no whole file sits in memory twice. */
export const READ_SLICE_BYTES = 4 * 1024 * 1024;

/**
 * fflate writes no ZIP64 records, so sizes and offsets must stay below 4 GiB. The margin leaves
 * room for headers and the central directory.
 */
export const MAX_ZIP_BYTES = 0xffff_ffff - 16 * 1024 * 1024;

/** ZIP dates run from 1980 to 2107 (fflate refuses anything outside 1980–2099). */
function toZipDate(date: Date | undefined): Date {
  const year = date?.getFullYear() ?? NaN;
  return date && year >= 1980 && year <= 2099 ? date : new Date();
}

/**
 * Builds a zip incrementally into Blob parts (fflate `Zip` + `ZipPassThrough`), so a large backup
 * never needs one giant buffer: each output chunk becomes its own Blob, which the browser may keep
 * on disk. Every entry is stored uncompressed: video is compressed already and the JSON and HTML
 * are tiny, which also lets the reader hand out video entries as slices of the file.
 */
export class ZipBlobWriter {
  private readonly parts: Blob[] = [];
  private readonly zip: Zip;
  private failure: Error | null = null;
  private isEnded = false;
  private resolveEnd: (() => void) | null = null;

  constructor() {
    this.zip = new Zip((error, chunk, isFinal) => {
      if (error) {
        this.failure = error;
        return;
      }
      // The Blob copies the bytes now, so fflate's chunk can be let go at once. (fflate types
      // its chunks over ArrayBufferLike; they are plain ArrayBuffers.)
      if (chunk.length > 0) this.parts.push(new Blob([chunk as Uint8Array<ArrayBuffer>]));
      if (isFinal) {
        this.isEnded = true;
        this.resolveEnd?.();
      }
    });
  }

  addText(name: string, text: string, date?: Date): void {
    const entry = this.startEntry(name, date);
    entry.push(strToU8(text), true);
    this.throwIfFailed();
  }

  /** Copies a Blob into the zip slice by slice; `onBytes` reports progress. */
  async addBlob(
    name: string,
    blob: Blob,
    options: { date?: Date; onBytes?: (bytes: number) => void } = {},
  ): Promise<void> {
    const entry = this.startEntry(name, options.date);
    if (blob.size === 0) entry.push(new Uint8Array(0), true);
    for (let offset = 0; offset < blob.size; offset += READ_SLICE_BYTES) {
      const end = Math.min(blob.size, offset + READ_SLICE_BYTES);
      const bytes = new Uint8Array(await blob.slice(offset, end).arrayBuffer());
      entry.push(bytes, end === blob.size);
      this.throwIfFailed();
      options.onBytes?.(bytes.length);
    }
  }

  async finish(): Promise<Blob> {
    const ended = new Promise<void>((resolve) => {
      this.resolveEnd = resolve;
    });
    this.zip.end();
    this.throwIfFailed();
    if (!this.isEnded) await ended;
    return new Blob(this.parts, { type: 'application/zip' });
  }

  private startEntry(name: string, date: Date | undefined): ZipPassThrough {
    const entry = new ZipPassThrough(name);
    entry.mtime = toZipDate(date);
    this.zip.add(entry);
    this.throwIfFailed();
    return entry;
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }
}
