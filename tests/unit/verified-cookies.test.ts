import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/server/lib/crypto';
import { VerifiedCookies } from '../../src/server/modules/auth/verified-cookies';

// A stand-in for @fastify/cookie's check: a cookie is "token.good" when signed.
function countingUnsign() {
  const calls: string[] = [];
  const unsign = (cookie: string) => {
    calls.push(cookie);
    const [token, signature] = cookie.split('.');
    return signature === 'good' ? { valid: true, value: token! } : { valid: false, value: null };
  };
  return { calls, unsign };
}

describe('VerifiedCookies', () => {
  it('checks a cookie’s signature once, and gives its token and the token’s hash', () => {
    const { calls, unsign } = countingUnsign();
    const cookies = new VerifiedCookies(10, unsign);

    expect(cookies.verify('abc.good')).toEqual({ token: 'abc', idHash: sha256('abc') });
    expect(cookies.verify('abc.good')).toEqual({ token: 'abc', idHash: sha256('abc') });
    expect(calls).toEqual(['abc.good']);
  });

  it('never keeps a cookie whose signature fails, so each one is checked again', () => {
    const { calls, unsign } = countingUnsign();
    const cookies = new VerifiedCookies(10, unsign);
    cookies.verify('abc.good');

    expect(cookies.verify('abc.bad')).toBeNull();
    expect(cookies.verify('abc.bad')).toBeNull();
    expect(cookies.verify('abc')).toBeNull();
    expect(calls).toEqual(['abc.good', 'abc.bad', 'abc.bad', 'abc']);
  });

  it('keeps at most its limit, dropping the one kept longest ago', () => {
    const { calls, unsign } = countingUnsign();
    const cookies = new VerifiedCookies(2, unsign);
    cookies.verify('one.good');
    cookies.verify('two.good');
    cookies.verify('three.good');
    calls.length = 0;

    cookies.verify('three.good');
    cookies.verify('two.good');
    expect(calls).toEqual([]);
    cookies.verify('one.good');
    expect(calls).toEqual(['one.good']);
  });
});
