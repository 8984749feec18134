// The cloud upload's limits and wording, without the validation library: the browser's
// background sync uses them, and loads no schema.

/** Parts are this size except the last (S3 wants at least 5 MiB for all but the last). */
export const UPLOAD_PART_BYTES = 8 * 1024 * 1024;
/** How many part URLs one sign call may ask for. */
export const MAX_SIGN_BATCH = 100;

export const CLOUD_MESSAGES = {
  upgradeRequired:
    'Cloud sync is part of the Standard, Premium and Professional plans. Your videos stay safe on this device.',
  storageFull:
    'Your cloud storage is full, so this message has not been sent to the cloud. It is still safe on this device. Delete older messages or choose a larger plan to make room.',
  alreadyUploading: 'This message is already being sent from another place.',
  uploadNotFound: 'This upload has ended. It will start again by itself.',
  partSizeWrong: 'This part of the video is not the expected size.',
  partsMissing: 'Some parts of this video have not arrived yet.',
  partChecksumsNeeded: 'Please send the SHA-256 of each part.',
  checksumMismatch:
    'The copy that arrived did not match the one on this device, so it was discarded. It will be sent again.',
  videoNotFound: 'This message is no longer available.',
  notInCloud: 'This message has not reached the cloud yet.',
  titleRequired: 'Please give this message a title',
} as const;
