// Sealed messages: the format, the keys and wraps, the code split and the recovery code. Pure
// WebCrypto, for pages, workers, the service worker and the server (which reads formats only).
export * from './errors';
export * from './format';
export {
  generateContentKey,
  generateWrappingKey,
  isWrapShaped,
  unwrapKey,
  wrapKey,
  wrapLabel,
} from './keys';
export type { TKeyUse } from './keys';
export * from './secrets';
export * from './recovery-code';
export { sealPart, sealSegment, sealStream, startSealing } from './seal';
export type { TSealing } from './seal';
export { openRange, openSegment, openStream, readHeader, segmentOpener } from './open';
export type { TSealedReader } from './open';
export * from './range';
