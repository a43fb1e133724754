import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  cleanFileName,
  FILE_MESSAGE,
  FILE_NAME_MAX_LENGTH,
  fileExtension,
  formatFileSize,
  ORDER_FILE_EXTENSIONS,
  ORDER_FILE_MAX_BYTES,
  validateMessengerFile,
  validateOrderFile,
} from './index';

describe('order and revision files (SPEC §5)', () => {
  it.each(['essay.docx', 'notes.PDF', 'data.tar.gz', 'slides.pptx', 'scan.jpeg', 'a.7z'])('accepts %s', (name) => {
    expect(validateOrderFile({ name, size: 10 })).toBeNull();
  });
  it.each(['virus.exe', 'page.html', 'noextension', '.docx'])('refuses %s with the list of formats', (name) => {
    expect(validateOrderFile({ name, size: 10 })).toBe(FILE_MESSAGE.invalidFormat(ORDER_FILE_EXTENSIONS));
  });
  it('says the list exactly as SPEC starts it', () => {
    expect(
      FILE_MESSAGE.invalidFormat(ORDER_FILE_EXTENSIONS).startsWith('Invalid file format. Acceptable file formats: txt, zip, doc'),
    ).toBe(true);
  });
  it('allows exactly 100MB and refuses a byte more', () => {
    expect(validateOrderFile({ name: 'a.pdf', size: ORDER_FILE_MAX_BYTES })).toBeNull();
    expect(validateOrderFile({ name: 'a.pdf', size: ORDER_FILE_MAX_BYTES + 1 })).toBe('Maximum file size is 100MB');
  });
});

describe('messenger attachments (SPEC §5)', () => {
  it('refuses more than 15MB', () => {
    expect(validateMessengerFile({ name: 'a.png', size: 15 * 1024 * 1024 + 1 })).toBe('Maximum file size - 15MB');
    expect(validateMessengerFile({ name: 'a.png', size: 15 * 1024 * 1024 })).toBeNull();
  });
});

describe('file helpers', () => {
  it('reads extensions as the lists spell them', () => {
    expect(fileExtension('A.TAR.GZ')).toBe('tar-gz');
    expect(fileExtension('x.Docx')).toBe('docx');
  });
  it.each([
    [512, '512 b'],
    [2048, '2 kb'],
    [5 * 1024 * 1024, '5 mb'],
    [1.5 * 1024 * 1024, '1.5 mb'],
  ])('shows %i bytes as %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });
});

describe('ADR 0068: the stored name of every upload', () => {
  it.each([
    ['invoice\u202Efdp.exe.pdf', 'invoicefdp.exe.pdf'],
    ['\u2066report\u2069.pdf', 'report.pdf'],
    ['a\u200B\u200C\u200D\uFEFFb\u00AD.docx', 'ab.docx'],
    ['line\u2028break\u2029.txt', 'linebreak.txt'],
    ['tab\there\u0000\u001F\u007F\u0085.txt', 'tabhere.txt'],
    ['lone\uD800surrogate\uDC00.txt', 'lonesurrogate.txt'],
    ['../../etc/passwd.txt', 'passwd.txt'],
    ['C:\\Users\\me\\essay.docx', 'essay.docx'],
    ['  spaced.pdf  ', 'spaced.pdf'],
    ['Re\u0301sume\u0301.pdf', 'Résumé.pdf'],
    ['😀 notes.txt', '😀 notes.txt'],
  ])('%j is stored as %j', (raw, expected) => {
    const name = cleanFileName(raw);
    expect(name).toBe(expected);
    expect(name).toBe(name.normalize('NFC'));
  });
  it('keeps at most 255 characters, the end (with the extension), and never half a character', () => {
    const name = cleanFileName(`${'😀'.repeat(300)}.pdf`);
    expect(Array.from(name)).toHaveLength(FILE_NAME_MAX_LENGTH);
    expect(name.endsWith('😀.pdf')).toBe(true);
    expect(() => encodeURIComponent(name)).not.toThrow();
  });
  it('leaves no control, format or separator character, no lone surrogate, no path, and is stable', () => {
    const unit = fc.oneof(
      fc.constantFrom('\u202E', '\u200F', '\u061C', '/', '\\', 'é', 'e\u0301', '😀', '\uD83D', ' ', '.'),
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 30 }), (units) => {
        const raw = units.join('');
        const name = cleanFileName(raw);
        expect(name).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}/\\]/u);
        expect(name).toBe(name.normalize('NFC'));
        expect(cleanFileName(name)).toBe(name);
        expect(() => encodeURIComponent(name)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
