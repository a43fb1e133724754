import { afterEach, describe, expect, it, vi } from 'vitest';
import { readStored, readStoredJson, writeStored, writeStoredJson } from './persisted';

const isPoint = (value: unknown): { x: number } | null =>
  typeof value === 'object' && value !== null && 'x' in value && typeof value.x === 'number' ? { x: value.x } : null;

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

describe('persisted values', () => {
  it('keeps text and removes it with null, in local or session storage apart', () => {
    writeStored('k', 'local text');
    writeStored('k', 'session text', 'session');
    expect(readStored('k')).toBe('local text');
    expect(readStored('k', 'session')).toBe('session text');
    writeStored('k', null);
    expect(readStored('k')).toBeNull();
    expect(window.localStorage.getItem('k')).toBeNull();
    expect(readStored('k', 'session')).toBe('session text');
  });

  it('reads JSON back through its check, and nothing for what is missing, not JSON or refused by the check', () => {
    writeStoredJson('point', { x: 3, extra: true });
    expect(window.localStorage.getItem('point')).toBe('{"x":3,"extra":true}');
    expect(readStoredJson('point', isPoint)).toEqual({ x: 3 });
    expect(readStoredJson('missing', isPoint)).toBeNull();
    window.localStorage.setItem('point', '{not json');
    expect(readStoredJson('point', isPoint)).toBeNull();
    window.localStorage.setItem('point', '{"x":"3"}');
    expect(readStoredJson('point', isPoint)).toBeNull();
    window.localStorage.setItem('point', 'null');
    expect(readStoredJson('point', isPoint)).toBeNull();
  });

  it('reads nothing and keeps nothing, without throwing, where storage refuses or is full', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('refused', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(() => {
      throw new DOMException('refused', 'SecurityError');
    });
    expect(readStored('k')).toBeNull();
    expect(readStoredJson('k', isPoint)).toBeNull();
    expect(() => writeStored('k', 'text')).not.toThrow();
    expect(() => writeStored('k', null)).not.toThrow();
    expect(() => writeStoredJson('k', { x: 1 }, 'session')).not.toThrow();
  });

  it('reads nothing and keeps nothing where there is no window (the server render)', () => {
    vi.stubGlobal('window', undefined);
    expect(readStored('k')).toBeNull();
    expect(readStoredJson('k', isPoint)).toBeNull();
    expect(() => writeStored('k', 'text')).not.toThrow();
  });
});
