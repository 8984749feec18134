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
    const cache = new ResponseCache(100);
    cache.keep('videos', 'a', answer('[1]'));
    cache.keep('recipients', 'a', answer('[2]'));
    cache.keep('videos', 'a', answer('[3]'));
    expect(cache.find('videos', 'a')?.value).toBe('[3]');
    expect(cache.find('recipients', 'a')?.value).toBe('[2]');
    expect(cache.find('videos', 'b')).toBeUndefined();
  });

  it('drops the answers cached longest ago to stay within its budget, and never keeps one larger', () => {
    const cache = new ResponseCache(10);
    cache.keep('videos', 'a', answer('aaaa'));
    cache.keep('videos', 'b', answer('bbbb'));
    cache.keep('videos', 'c', answer('cccc'));
    expect(cache.find('videos', 'a')).toBeUndefined();
    expect(cache.find('videos', 'b')?.value).toBe('bbbb');
    expect(cache.find('videos', 'c')?.value).toBe('cccc');

    // Too large to keep: not cached, and the session's older answer is gone too (it is stale).
    cache.keep('videos', 'b', answer('x'.repeat(11)));
    expect(cache.find('videos', 'b')).toBeUndefined();
    expect(cache.find('videos', 'c')?.value).toBe('cccc');
  });
});
