import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export const TEST_BUCKET = 'memento-videos';

/** The bucket's CORS as a real deployment needs it: browsers PUT parts and must read the ETag. */
const CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/**
 * A real S3-compatible server (s3rver) on a free port with one bucket, started by the tests
 * themselves; answers the S3_* variables that put the app in S3 mode.
 */
export async function startS3Server(): Promise<{
  env: Record<string, string>;
  endpoint: string;
  close(): Promise<void>;
}> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'memento-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET, configs: [CORS] }],
  });
  server.middleware.unshift(listParts(directory));
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: TEST_BUCKET,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * s3rver lacks ListParts, which the app's completion reads. This answers it as S3 does from
 * s3rver's own files: each part's size, ETag (its MD5) and the SHA-256 of the bytes it holds.
 */
function listParts(directory: string) {
  return async (
    ctx: Parameters<S3rver['middleware'][number]>[0],
    next: () => Promise<void>,
  ): Promise<void> => {
    const uploadId = ctx.query.uploadId;
    if (ctx.method !== 'GET' || typeof uploadId !== 'string' || !/^[0-9a-f]+$/.test(uploadId)) {
      return next();
    }
    const [, bucket, ...key] = ctx.path.split('/');
    const folder = path.join(directory, bucket!, '._S3rver_uploads', uploadId);
    const names = (await readdir(folder).catch(() => [])).filter((name) => /^\d+$/.test(name));
    const parts = await Promise.all(
      names.map(async (name) => {
        const bytes = await readFile(path.join(folder, name));
        const md5 = (await readFile(path.join(folder, `${name}.md5`))).toString();
        const sha256 = createHash('sha256').update(bytes).digest('base64');
        return `<Part><PartNumber>${name}</PartNumber><ETag>"${md5}"</ETag><Size>${bytes.length}</Size><ChecksumSHA256>${sha256}</ChecksumSHA256></Part>`;
      }),
    );
    ctx.type = 'application/xml';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${bucket}</Bucket><Key>${key.join('/')}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
  };
}
