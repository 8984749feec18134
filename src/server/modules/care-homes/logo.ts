import {
  CARE_HOME_MESSAGES,
  LOGO_MAX_BYTES,
  LOGO_MAX_PIXELS,
  type TLogoType,
} from '../../../shared/schemas/care-homes';
import { AppError } from '../../errors';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return signature.every((byte, index) => bytes[index] === byte);
}

/** The picture's type by its first bytes, whatever the browser said it was. */
export function sniffLogoType(bytes: Uint8Array): TLogoType | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  return null;
}

/** Width and height: a PNG's header chunk, or a JPEG's first start-of-frame segment. */
export function imageSize(
  bytes: Uint8Array,
  type: TLogoType,
): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type === 'image/png') {
    if (bytes.length < 24) return null;
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    const length = view.getUint16(offset + 2);
    // SOF0 to SOF15, except DHT (C4), JPG (C8) and DAC (CC), carry the frame's size.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    }
    offset += 2 + length;
  }
  return null;
}

/** A logo as it may be kept: a PNG or JPEG by its bytes, small enough, at most 1024 px a side. */
export function checkLogo(bytes: Uint8Array, declared: string): TLogoType {
  const type = sniffLogoType(bytes);
  if (!type || type !== declared)
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', CARE_HOME_MESSAGES.logoType);
  if (bytes.length > LOGO_MAX_BYTES)
    throw new AppError('PAYLOAD_TOO_LARGE', CARE_HOME_MESSAGES.logoTooLarge);
  const size = imageSize(bytes, type);
  if (!size) throw new AppError('UNSUPPORTED_MEDIA_TYPE', CARE_HOME_MESSAGES.logoType);
  if (size.width > LOGO_MAX_PIXELS || size.height > LOGO_MAX_PIXELS) {
    throw new AppError('VALIDATION', CARE_HOME_MESSAGES.logoTooManyPixels);
  }
  return type;
}
