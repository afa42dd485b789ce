import { describe, expect, it } from 'vitest';
import { SetupCode, setupUrl } from './setup-code.js';

describe('SetupCode', () => {
  it('is random, URL-safe and long enough not to be guessed', () => {
    const a = new SetupCode().value ?? '';
    const b = new SetupCode().value ?? '';
    expect(a).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(a).not.toBe(b);
  });

  it('matches only itself, and nothing once used', () => {
    const code = new SetupCode('right-code');
    expect(code.matches('right-code')).toBe(true);
    expect(code.matches('right-cod')).toBe(false);
    expect(code.matches('right-codf')).toBe(false);
    expect(code.matches('')).toBe(false);
    code.consume();
    expect(code.value).toBeNull();
    expect(code.matches('right-code')).toBe(false);
  });

  it('builds the link from PUBLIC_URL, else localhost and the port', () => {
    expect(setupUrl('abc', null, 4000)).toBe('http://localhost:4000/?setup=abc');
    expect(setupUrl('a+b', 'https://music.example.org', 4000)).toBe('https://music.example.org/?setup=a%2Bb');
  });
});
