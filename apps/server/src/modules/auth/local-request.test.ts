import { describe, expect, it } from 'vitest';
import { isLocalRequest, isLoopbackAddress } from './local-request.js';

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])('%s is loopback', (ip) => {
    expect(isLoopbackAddress(ip)).toBe(true);
  });
  it.each(['10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', '2001:db8::1', '1127.0.0.1', '0.0.0.0', ''])(
    '%s is not',
    (ip) => {
      expect(isLoopbackAddress(ip)).toBe(false);
    },
  );
});

describe('isLocalRequest', () => {
  it('is local from loopback without forwarding headers', () => {
    expect(isLocalRequest('127.0.0.1', {}, false)).toBe(true);
    expect(isLocalRequest('::1', { host: 'localhost' }, false)).toBe(true);
  });

  it('is not local from another address', () => {
    expect(isLocalRequest('203.0.113.9', {}, false)).toBe(false);
    expect(isLocalRequest('203.0.113.9', {}, true)).toBe(false);
  });

  it.each(['x-forwarded-for', 'forwarded', 'x-real-ip'])(
    'is not local through an untrusted proxy that sets %s, whatever it claims',
    (header) => {
      expect(isLocalRequest('127.0.0.1', { [header]: '127.0.0.1' }, false)).toBe(false);
      expect(isLocalRequest('127.0.0.1', { [header]: '203.0.113.9' }, 0)).toBe(false);
    },
  );

  it('takes the address a named trusted proxy reported (TRUST_PROXY as a hop count or addresses)', () => {
    expect(isLocalRequest('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' }, 1)).toBe(true);
    expect(isLocalRequest('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' }, '127.0.0.1/8')).toBe(true);
  });

  it('does not take TRUST_PROXY=true’s word: the leftmost X-Forwarded-For is the client’s own', () => {
    expect(isLocalRequest('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' }, true)).toBe(false);
    expect(isLocalRequest('127.0.0.1', {}, true)).toBe(true);
  });
});
