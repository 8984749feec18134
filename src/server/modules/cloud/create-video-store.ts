import path from 'node:path';
import type { TConfig } from '../../config';
import { FileVideoStore, S3VideoStore, type VideoStore } from './video-store';

/** Files under DATA_DIR/videos by default; S3 when S3_BUCKET and its credentials are set. */
export function createVideoStore(config: TConfig): VideoStore {
  if (config.S3_BUCKET && config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY) {
    return new S3VideoStore({
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return new FileVideoStore(path.resolve(config.DATA_DIR, 'videos'));
}
