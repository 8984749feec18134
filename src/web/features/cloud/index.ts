export { partChecksums, partHeaders } from './part-checksums';
export { partsToSend } from './parts-to-send';
