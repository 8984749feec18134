export { partChecksums, partHeaders, sha256Hex } from './part-checksums';
export { partsToSend } from './parts-to-send';
