import type { AppDeps } from '../../deps';
import { findOwnedObjectKeys, findOwnedUploads } from './orphan-sweep.repository';
import type { ListedUpload } from './video-store';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<AppDeps, 'db' | 'log' | 'videoStore'>;

const HOUR_MS = 3600_000;

/**
 * Nothing younger than this is touched: an object is written just before its row says so (S3
 * creates an upload before its row exists), maybe on another app server.
 */
export const ORPHAN_GRACE_MS = 24 * HOUR_MS;

export interface OrphanSweepResult {
  objectsRemoved: number;
  uploadsRemoved: number;
  /** Stored things no row owns that could not be removed (tried again on the next sweep). */
  failed: number;
  /** False when the store cannot list unfinished uploads (its own lifecycle rule must then). */
  uploadsListed: boolean;
}

/**
 * The nightly sweep: removes every stored object and unfinished upload that no row owns and that
 * is older than the grace window, whatever left it (a store that failed a delete, a server that
 * stopped between the database and the store). `now` is the clock (tests pass their own). Once a
 * day across servers is the job schedule's part (modules/jobs).
 */
export async function runOrphanSweep(deps: Deps, now: Date): Promise<OrphanSweepResult> {
  const result: OrphanSweepResult = {
    objectsRemoved: 0,
    uploadsRemoved: 0,
    failed: 0,
    uploadsListed: true,
  };
  const writtenBefore = now.getTime() - ORPHAN_GRACE_MS;
  const store = deps.videoStore;

  try {
    for await (const page of store.listObjects()) {
      const old = page.filter((object) => isOlder(object.writtenAt, writtenBefore));
      const owned = await findOwnedObjectKeys(
        deps.db,
        old.map((object) => object.key),
      );
      for (const object of old) {
        if (owned.has(object.key)) continue;
        await store.deleteObject(object.key).then(
          () => (result.objectsRemoved += 1),
          () => (result.failed += 1),
        );
      }
    }
  } catch (error) {
    result.failed += 1;
    deps.log.warn(
      { err: error },
      'orphan sweep: stored objects could not all be listed and checked',
    );
  }

  try {
    for await (const page of store.listUnfinishedUploads()) {
      const old = page.filter((upload) => isOlder(upload.startedAt, writtenBefore));
      const owned = await findOwnedUploads(deps.db, old);
      for (const upload of old) {
        if (isOwned(owned, upload)) continue;
        await store.abortMultipart(upload).then(
          () => (result.uploadsRemoved += 1),
          () => (result.failed += 1),
        );
      }
    }
  } catch (error) {
    result.uploadsListed = false;
    deps.log.warn(
      { err: error },
      'orphan sweep: unfinished uploads could not all be listed and checked',
    );
  }

  const log = result.failed > 0 ? deps.log.warn.bind(deps.log) : deps.log.info.bind(deps.log);
  log(
    {
      objectsRemoved: result.objectsRemoved,
      uploadsRemoved: result.uploadsRemoved,
      failed: result.failed,
    },
    'orphan sweep: removed stored objects and unfinished uploads that no row owns',
  );
  return result;
}

/** A time the store did not give counts as just now: never older. */
function isOlder(at: Date | null, before: number): boolean {
  return at !== null && at.getTime() < before;
}

function isOwned(owned: Set<string>, upload: ListedUpload): boolean {
  return owned.has(upload.id) || (upload.storeUploadId !== null && owned.has(upload.storeUploadId));
}
