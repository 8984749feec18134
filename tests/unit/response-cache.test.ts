import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/server/modules/auth/response-cache';

const answer = (value: string) => ({
  userId: 1,
  isAdmin: false,
  version: 1,
  value,
  size: value.length,
});

describe('the answers a server keeps', () => {
  it('finds an answer by the read and the session, and keeps one a session and read', () => {
    const kept = new ResponseCache(100);
    kept.keep('videos', 'a', answer('[1]'));
    kept.keep('recipients', 'a', answer('[2]'));
    kept.keep('videos', 'a', answer('[3]'));
    expect(kept.find('videos', 'a')?.value).toBe('[3]');
    expect(kept.find('recipients', 'a')?.value).toBe('[2]');
    expect(kept.find('videos', 'b')).toBeUndefined();
  });

  it('drops the answers kept longest ago to stay within its budget, and never keeps one larger', () => {
    const kept = new ResponseCache(10);
    kept.keep('videos', 'a', answer('aaaa'));
    kept.keep('videos', 'b', answer('bbbb'));
    kept.keep('videos', 'c', answer('cccc'));
    expect(kept.find('videos', 'a')).toBeUndefined();
    expect(kept.find('videos', 'b')?.value).toBe('bbbb');
    expect(kept.find('videos', 'c')?.value).toBe('cccc');

    // Too large to keep: not kept, and the session's older answer is gone too (it is stale).
    kept.keep('videos', 'b', answer('x'.repeat(11)));
    expect(kept.find('videos', 'b')).toBeUndefined();
    expect(kept.find('videos', 'c')?.value).toBe('cccc');
  });
});
