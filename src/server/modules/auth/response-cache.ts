/** An answer a server sent a session, with the user and the version it was read for. */
export interface CachedResponse<T> {
  userId: number;
  /** An admin reads more than their own (the audit log of every account). */
  isAdmin: boolean;
  /** A lists version, or the snapshot an audit log page was read in. */
  version: number | string;
  value: T;
  /** What it counts against the budget: its length in characters, or near enough. */
  size: number;
}

/**
 * A response cache: what this server last sent each session for its cached reads, up to a budget
 * of characters, least recently cached dropped first (see
 * docs/decisions/042-kept-lists-sent-again-while-the-version-stands.md). Only a hint: the
 * request's own statement says whether an answer is still current (its user and version), so one
 * cached by a server that never heard of a change is never sent, and a session that ended finds no
 * user to be sent to.
 */
export class ResponseCache {
  private readonly answers = new Map<string, CachedResponse<unknown>>();
  private size = 0;

  constructor(private readonly budget: number) {}

  find<T>(readName: string, sessionIdHash: string): CachedResponse<T> | undefined {
    return this.answers.get(keyOf(readName, sessionIdHash)) as CachedResponse<T> | undefined;
  }

  keep<T>(readName: string, sessionIdHash: string, answer: CachedResponse<T>): void {
    const key = keyOf(readName, sessionIdHash);
    this.forget(key);
    if (answer.size > this.budget) return;
    this.answers.set(key, answer);
    this.size += answer.size;
    for (const oldest of this.answers.keys()) {
      if (this.size <= this.budget) break;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    const answer = this.answers.get(key);
    if (!answer) return;
    this.answers.delete(key);
    this.size -= answer.size;
  }
}

const keyOf = (readName: string, sessionIdHash: string) => `${readName} ${sessionIdHash}`;
