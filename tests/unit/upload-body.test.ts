import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_PARTS, UPLOAD_PART_BYTES, ZCreateUploadBody } from '@shared/schemas/cloud';
import { ZPairingVideoBody } from '@shared/schemas/pairing';
import { MAX_VIDEO_BYTES } from '@shared/schemas/videos';
import { sealedSize } from '@shared/sealing';

const WRAP = `v1.${'A'.repeat(16)}.${'B'.repeat(64)}`;
const body = (byteSize: number, sealed?: { keyWrap: string }) => ({
  videoId: '3f1c2b9a-6d4e-4f80-9a1b-2c3d4e5f6071',
  title: 'For Susan',
  byteSize,
  sha256: 'a'.repeat(64),
  ...(sealed ? { sealed } : {}),
});

describe('the largest recording, plain or sealed', () => {
  it('is accepted sealed, though sealing makes it a little larger', () => {
    expect(ZCreateUploadBody.safeParse(body(MAX_VIDEO_BYTES)).success).toBe(true);
    const sealed = ZCreateUploadBody.safeParse(
      body(sealedSize(MAX_VIDEO_BYTES), { keyWrap: WRAP }),
    );
    expect(sealed.success).toBe(true);
    expect(Math.ceil(sealedSize(MAX_VIDEO_BYTES) / UPLOAD_PART_BYTES)).toBe(MAX_UPLOAD_PARTS);
  });

  it('refuses a plain copy or a phone’s video larger than a recording may be', () => {
    const plain = ZCreateUploadBody.safeParse(body(MAX_VIDEO_BYTES + 1));
    expect(plain.error?.issues.map((issue) => issue.message)).toEqual(['This video is too large']);
    const fromPhone = ZPairingVideoBody.safeParse({
      ...body(MAX_VIDEO_BYTES + 1),
      id: '3f1c2b9a-6d4e-4f80-9a1b-2c3d4e5f6071',
      recipientId: 3,
      durationMs: 1000,
      mimeType: 'video/mp4',
    });
    expect(fromPhone.error?.issues.map((issue) => issue.message)).toEqual([
      'This video is too large',
    ]);
  });
});
