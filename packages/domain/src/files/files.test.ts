import { describe, expect, it } from 'vitest';
import {
  FILE_MESSAGE,
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
