import { isSealingError } from '@shared/sealing/errors';
import { compositeSha256Hex, sha256Hex, sha256HexOfBytes } from '@web/lib/sha256';
import {
  downloadCopy,
  downloadCopyInParts,
  fetchPlainToLibrary,
  stageInLibrary,
} from './fill-download';
import { discardStaged, readStaged } from './local-store';

/**
 * One cloud copy brought down for the new device's fill (cloud-fill.ts) and written to the
 * library as it arrives, a part at a time, never held whole: a plain copy as it is, a sealed one
 * opened segment by segment (each checked before it is written). The chunks stay unlisted until
 * the fill keeps the copy; a copy that does not match leaves none behind.
 */

/** A copy written and checked (its size and chunks), or why not: changed or cut ('damaged'). */
export type TStaged =
  { isMatch: true; byteSize: number; chunkCount: number } | { isMatch: false; isDamaged: boolean };

/** Whether the parts' composite is the checksum the server recorded (copies sent part by part). */
const isComposite = async (partSha256s: string[], sha256: string) =>
  (await compositeSha256Hex(partSha256s)) === sha256;

/** A copy written whole: kept if it matched, else its chunks are given back. */
async function settle(
  videoId: string,
  stage: { byteSize: number; chunkCount: number },
  isMatch: boolean,
): Promise<TStaged> {
  if (isMatch) return { isMatch, byteSize: stage.byteSize, chunkCount: stage.chunkCount };
  await discardStaged(videoId);
  return { isMatch, isDamaged: false };
}

/**
 * A plain copy: a match by its parts' composite, hashed as they came, else (a copy sent before
 * parts were checked) by the whole SHA-256 of what was written. `onDownloaded` hears as soon as
 * the bytes are all here and matched: none of them is held in the page any more. Fetched by the
 * chunk writer where one runs, else read here.
 */
export async function stagePlainCopy(
  url: string,
  entry: { id: string; sha256: string },
  onDownloaded: () => void,
): Promise<TStaged> {
  // Matched as soon as all of it arrived, so the next copy can start while the last chunks are
  // written; the copy counts only once they are.
  let matched: Promise<boolean> | undefined;
  const fetched = await fetchPlainToLibrary(entry.id, url, (partSha256s) => {
    matched = isComposite(partSha256s, entry.sha256);
    void matched.then(
      (isMatch) => isMatch && onDownloaded(),
      () => undefined,
    );
  });
  if (!fetched) return stagePlainCopyInPage(url, entry, onDownloaded);
  let isMatch = await (matched ?? isComposite(fetched.partSha256s, entry.sha256));
  isMatch ||= (await sha256Hex(await readStaged(entry.id))) === entry.sha256;
  return settle(entry.id, fetched, isMatch);
}

/** `stagePlainCopy` where no chunk writer runs: the page reads the copy and hands on chunks. */
async function stagePlainCopyInPage(
  url: string,
  entry: { id: string; sha256: string },
  onDownloaded: () => void,
): Promise<TStaged> {
  const stage = stageInLibrary(entry.id);
  let partSha256s: string[];
  try {
    ({ partSha256s } = await downloadCopyInParts(url, (part) => stage.write(part)));
  } catch (error) {
    // Writes still under way are let finish, so none lands after the next try has begun.
    await stage.finish(false).catch(() => undefined);
    throw error;
  }
  let isMatch = await isComposite(partSha256s, entry.sha256);
  if (isMatch) onDownloaded();
  await stage.finish();
  isMatch ||= (await sha256Hex(await readStaged(entry.id))) === entry.sha256;
  return settle(entry.id, stage, isMatch);
}

/** The sealing code loads only for an account that has sealed copies. */
const loadSealing = () => import('@shared/sealing');

/**
 * A sealed copy opened with its content key as it arrives, the recording written a segment at a
 * time. A segment that fails its check, or a copy cut or lengthened, is 'damaged': nothing of it
 * stays. Every segment checked, the copy must also match its checksum (a copy sealed before parts
 * were checked is fetched once more to hash it whole).
 */
export async function stageSealedCopy(
  url: string,
  entry: { id: string; sha256: string },
  contentKey: CryptoKey,
): Promise<TStaged> {
  const { segmentOpener } = await loadSealing();
  const stage = stageInLibrary(entry.id);
  const opener = segmentOpener(contentKey, entry.id, (plaintext) => stage.write(plaintext));
  let partSha256s: string[];
  try {
    ({ partSha256s } = await downloadCopyInParts(url, (part) => opener.open(part)));
    opener.end();
  } catch (error) {
    await stage.finish(false).catch(() => undefined);
    if (!isSealingError(error)) throw error;
    await discardStaged(entry.id);
    return { isMatch: false, isDamaged: true };
  }
  await stage.finish();
  const isMatch =
    (await isComposite(partSha256s, entry.sha256)) ||
    (await sha256HexOfBytes(await downloadCopy(url))) === entry.sha256;
  return settle(entry.id, stage, isMatch);
}
