/**
 * Why a sealed message or a wrapped key could not be opened. The player and the sign-in pages
 * turn each reason into plain words; none of them ever yields partly decrypted bytes.
 */
export type TSealingFailure =
  /** Not a sealed message of a version this code reads, or a header that makes no sense. */
  | 'header'
  /** The header names another message than the one asked for. */
  | 'wrong-message'
  /** A segment failed its check: a changed byte, a segment moved, swapped or from elsewhere. */
  | 'segment'
  /** The bytes ended before the length the header promises. */
  | 'truncated'
  /** Bytes follow the last segment. */
  | 'extended'
  /** A range outside the message, or a stored object of the wrong size. */
  | 'range'
  /** The secret or key does not open this wrap (wrong code, or the wrap was altered). */
  | 'wrap'
  /** Derivation settings below the floor or above the ceiling this code accepts. */
  | 'kdf';

export class SealingError extends Error {
  override readonly name = 'SealingError';

  constructor(
    readonly reason: TSealingFailure,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export function isSealingError(error: unknown, reason?: TSealingFailure): error is SealingError {
  return error instanceof SealingError && (reason === undefined || error.reason === reason);
}
