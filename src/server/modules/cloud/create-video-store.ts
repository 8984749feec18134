import path from 'node:path';
import type { TConfig } from '../../config';
import { FileVideoStore, type VideoStore } from './video-store';

/**
 * Files under DATA_DIR/videos by default; S3 when S3_BUCKET and its credentials are set. The S3
 * client is loaded only then: a server that never uses it does not carry it in memory.
 */
export async function createVideoStore(config: TConfig): Promise<VideoStore> {
  if (config.S3_BUCKET && config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY) {
    const { S3VideoStore } = await import('./s3-video-store');
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
