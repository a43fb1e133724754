import { describe, expect, it } from 'vitest';
import { matchesFileSignature } from './index';

const bytes = (...b: number[]) => Uint8Array.from(b);
const text = (s: string) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)));

describe('content fits the extension (ADR 0012)', () => {
  it.each<[string, Uint8Array]>([
    ['pdf', text('%PDF-1.7')],
    ['docx', bytes(0x50, 0x4b, 0x03, 0x04)],
    ['odt', bytes(0x50, 0x4b, 0x03, 0x04)],
    ['doc', bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)],
    ['gif', text('GIF89a')],
    ['7z', bytes(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c)],
    ['rar', bytes(0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00)],
    ['csv', text('a,b\n1,2')],
  ])('accepts a real %s head', (ext, head) => {
    expect(matchesFileSignature(ext, head)).toBe(true);
  });

  it('finds tar by ustar at offset 257', () => {
    const head = new Uint8Array(512);
    head.set(text('ustar'), 257);
    expect(matchesFileSignature('tar', head)).toBe(true);
    expect(matchesFileSignature('tar', new Uint8Array(512))).toBe(false);
  });

  it.each<[string, Uint8Array]>([
    ['pdf', text('MZ')],
    ['png', bytes(0xff, 0xd8, 0xff)],
    ['txt', bytes(0x41, 0x00, 0x42)],
    ['pdf', new Uint8Array(0)],
    ['exe', text('MZ')],
  ])('refuses a %s whose head does not fit', (ext, head) => {
    expect(matchesFileSignature(ext, head)).toBe(false);
  });
});
