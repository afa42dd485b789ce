import { describe, expect, it } from 'vitest';
import { hostnameOf, isLocalRequest, isLoopbackAddress, isOwnHost } from './local-request.js';

const LOCAL = { host: 'localhost:4000' };

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

describe('isOwnHost', () => {
  it.each([
    'localhost',
    'localhost:4000',
    'LOCALHOST',
    'LocalHost:80',
    '127.0.0.1',
    '127.0.0.1:4813',
    '[::1]',
    '[::1]:4000',
  ])('%s names this machine', (host) => {
    expect(isOwnHost(host, null)).toBe(true);
  });

  it.each([
    'evil.example',
    'evil.example:4813',
    'localhost.evil.example',
    'localhost.evil.example:4000',
    '127.0.0.1.nip.io',
    '127.0.0.1.nip.io:4000',
    '[::1].evil.example',
    '[::2]:4000',
    '::1',
    'localhost:',
    'localhost:port',
    'user@localhost',
    'localhost/evil',
    '',
  ])('%j does not', (host) => {
    expect(isOwnHost(host, null)).toBe(false);
  });

  it('is false without a Host, or with several', () => {
    expect(isOwnHost(undefined, null)).toBe(false);
    expect(isOwnHost(['localhost', 'evil.example'], null)).toBe(false);
  });

  it('takes PUBLIC_URL’s host name, in any case and with any port, and only that', () => {
    const publicUrl = 'https://music.example.org';
    expect(isOwnHost('music.example.org', publicUrl)).toBe(true);
    expect(isOwnHost('Music.Example.org:4000', publicUrl)).toBe(true);
    expect(isOwnHost('localhost:4000', publicUrl)).toBe(true);
    expect(isOwnHost('music.example.org.evil.example', publicUrl)).toBe(false);
    expect(isOwnHost('evil.example', publicUrl)).toBe(false);
    expect(isOwnHost('music.example.org', null)).toBe(false);
  });

  it('reads a Host header into its lower-case host name (IPv6 in brackets), or null', () => {
    expect(hostnameOf('[::1]:4000')).toBe('[::1]');
    expect(hostnameOf('LOCALHOST:80')).toBe('localhost');
    expect(hostnameOf(' 127.0.0.1 ')).toBe('127.0.0.1');
    expect(hostnameOf(undefined)).toBeNull();
    expect(hostnameOf('a b')).toBeNull();
  });
});

describe('isLocalRequest', () => {
  it('is local from loopback without forwarding headers, with a Host of this machine', () => {
    expect(isLocalRequest('127.0.0.1', LOCAL, false, null)).toBe(true);
    expect(isLocalRequest('::1', { host: 'localhost' }, false, null)).toBe(true);
    expect(isLocalRequest('::1', { host: '[::1]:4000' }, false, null)).toBe(true);
  });

  it('is not local from another address', () => {
    expect(isLocalRequest('203.0.113.9', LOCAL, false, null)).toBe(false);
    expect(isLocalRequest('203.0.113.9', LOCAL, true, null)).toBe(false);
  });

  it.each(['x-forwarded-for', 'forwarded', 'x-real-ip'])(
    'is not local through an untrusted proxy that sets %s, whatever it claims',
    (header) => {
      expect(isLocalRequest('127.0.0.1', { ...LOCAL, [header]: '127.0.0.1' }, false, null)).toBe(false);
      expect(isLocalRequest('127.0.0.1', { ...LOCAL, [header]: '203.0.113.9' }, 0, null)).toBe(false);
    },
  );

  it('takes the address a named trusted proxy reported (TRUST_PROXY as a hop count or addresses)', () => {
    expect(isLocalRequest('127.0.0.1', { ...LOCAL, 'x-forwarded-for': '127.0.0.1' }, 1, null)).toBe(true);
    expect(isLocalRequest('127.0.0.1', { ...LOCAL, 'x-forwarded-for': '127.0.0.1' }, '127.0.0.1/8', null)).toBe(true);
  });

  it('does not take TRUST_PROXY=true’s word: the leftmost X-Forwarded-For is the client’s own', () => {
    expect(isLocalRequest('127.0.0.1', { ...LOCAL, 'x-forwarded-for': '127.0.0.1' }, true, null)).toBe(false);
    expect(isLocalRequest('127.0.0.1', LOCAL, true, null)).toBe(true);
  });

  describe('DNS rebinding: loopback, but a page of another site', () => {
    it.each([{ host: 'evil.example:4813' }, { host: 'localhost.evil.example' }, { host: '127.0.0.1.nip.io:4000' }, {}])(
      'is not local with Host %j',
      (headers) => {
        expect(isLocalRequest('127.0.0.1', headers, false, null)).toBe(false);
      },
    );

    it('is not local when the Origin is another site’s, or unreadable', () => {
      expect(isLocalRequest('127.0.0.1', { ...LOCAL, origin: 'http://evil.example:4813' }, false, null)).toBe(false);
      expect(isLocalRequest('127.0.0.1', { ...LOCAL, origin: 'http://localhost.evil.example' }, false, null)).toBe(
        false,
      );
      expect(isLocalRequest('127.0.0.1', { ...LOCAL, origin: 'null' }, false, null)).toBe(false);
      expect(isLocalRequest('127.0.0.1', { ...LOCAL, origin: 'file://localhost' }, false, null)).toBe(false);
    });

    it('is local with an Origin of this machine', () => {
      expect(isLocalRequest('127.0.0.1', { ...LOCAL, origin: 'http://localhost:4000' }, false, null)).toBe(true);
      expect(isLocalRequest('::1', { host: '[::1]:4000', origin: 'http://[::1]:4000' }, false, null)).toBe(true);
    });

    it('never believes an X-Forwarded-Host unless a named proxy is trusted, and then the last one', () => {
      const rebound = { host: 'evil.example:4813', 'x-forwarded-host': 'localhost' };
      expect(isLocalRequest('127.0.0.1', rebound, false, null)).toBe(false);
      expect(isLocalRequest('127.0.0.1', rebound, true, null)).toBe(false);
      const proxied = { host: '127.0.0.1:4000', 'x-forwarded-for': '127.0.0.1' };
      expect(isLocalRequest('127.0.0.1', { ...proxied, 'x-forwarded-host': 'evil.example' }, 1, null)).toBe(false);
      expect(isLocalRequest('127.0.0.1', { ...proxied, 'x-forwarded-host': 'localhost, evil.example' }, 1, null)).toBe(
        false,
      );
      expect(isLocalRequest('127.0.0.1', { ...proxied, 'x-forwarded-host': 'evil.example, localhost' }, 1, null)).toBe(
        true,
      );
    });

    it('takes PUBLIC_URL’s host as this machine’s (a reverse proxy on it passing the Host on)', () => {
      const publicUrl = 'https://music.example.org';
      const headers = { host: 'music.example.org', origin: publicUrl };
      expect(isLocalRequest('127.0.0.1', headers, false, publicUrl)).toBe(true);
      expect(isLocalRequest('127.0.0.1', headers, false, null)).toBe(false);
      expect(isLocalRequest('127.0.0.1', { ...headers, origin: 'https://evil.example' }, false, publicUrl)).toBe(false);
    });
  });
});
