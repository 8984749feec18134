/**
 * The one list of types a stored video may have, and how each is written down and served. A
 * recording is only ever kept, and sent back, as one of these: anything else could be read by a
 * browser as a page or a script on the app's own address.
 */
export const VIDEO_TYPES = ['video/webm', 'video/mp4', 'video/quicktime'] as const;
export type TVideoEssence = (typeof VIDEO_TYPES)[number];

export const VIDEO_TYPE_MESSAGE = 'Only video recordings can be saved';
export const MAX_VIDEO_TYPE_LENGTH = 100;

/** What a stored type that is not on the list is served as: bytes to save, never to show. */
export const UNKNOWN_VIDEO_TYPE = 'application/octet-stream';

const FILE_EXTENSIONS: Record<TVideoEssence, string> = {
  'video/webm': 'webm',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
};

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** The type, then at most one parameter, `codecs`, its value bare or in double quotes. */
const VIDEO_TYPE_SHAPE = /^([a-z0-9]+\/[a-z0-9]+) *(?:; *codecs=(?:"([^"]*)"|([^";]*)))?$/i;
/** One codec name as browsers write them (`vp8`, `avc1.42E01E`, `mp4a.40.2`). */
const CODEC_SHAPE = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,49}$/;
const MAX_CODECS = 4;

function isVideoEssence(type: string): type is TVideoEssence {
  return (VIDEO_TYPES as readonly string[]).includes(type);
}

/**
 * A video type in its one written form (`video/webm;codecs=vp8,opus`: the type in lower case, the
 * codecs without quotes or spaces, as the recorder names them), or null when it is not one of
 * ours. Safari's `video/mp4; codecs="avc1.42E01E, mp4a.40.2"` becomes
 * `video/mp4;codecs=avc1.42E01E,mp4a.40.2`.
 */
export function normaliseVideoType(raw: string): string | null {
  if (raw.length > MAX_VIDEO_TYPE_LENGTH || !PRINTABLE_ASCII.test(raw)) return null;
  const match = VIDEO_TYPE_SHAPE.exec(raw.trim());
  if (!match) return null;
  const essence = match[1]!.toLowerCase();
  if (!isVideoEssence(essence)) return null;
  const codecsValue = match[2] ?? match[3];
  if (codecsValue === undefined) return essence;
  const codecs = codecsValue.split(',').map((codec) => codec.trim());
  if (codecs.length > MAX_CODECS || !codecs.every((codec) => CODEC_SHAPE.test(codec))) {
    return null;
  }
  return `${essence};codecs=${codecs.join(',')}`;
}

/**
 * The headers a stored video is sent with. Its codecs go in quotes (a comma may not stand bare in
 * a header's parameter), and the file name comes from the type, never from anything a user typed.
 * A type that is not on the list (a row saved before the list existed) is sent as a download.
 */
export function servedVideoType(stored: string): { contentType: string; disposition: string } {
  const type = normaliseVideoType(stored);
  if (!type) {
    return { contentType: UNKNOWN_VIDEO_TYPE, disposition: 'attachment; filename="message.bin"' };
  }
  const [essence, codecs] = type.split(';codecs=') as [TVideoEssence, string | undefined];
  return {
    contentType: codecs === undefined ? essence : `${essence};codecs="${codecs}"`,
    disposition: `inline; filename="message.${FILE_EXTENSIONS[essence]}"`,
  };
}
