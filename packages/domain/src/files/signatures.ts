/**
 * The content check behind the extension check (ADR 0012): the first bytes of an uploaded file must look
 * like the format its extension names, so a renamed executable is not stored as `essay.pdf`.
 * Pure: the server feeds it the head of the stream.
 */

/** How many leading bytes the check needs (tar's `ustar` sits at offset 257). */
export const FILE_SIGNATURE_HEAD_BYTES = 512;

type Signature = readonly [offset: number, bytes: readonly number[]];

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

const PDF: Signature[] = [[0, ascii('%PDF')]];
// Zip, and every zip-based format: docx, xlsx, pptx, odt, zipx (local file header, empty or spanned archive).
const ZIP: Signature[] = [
  [0, [0x50, 0x4b, 0x03, 0x04]],
  [0, [0x50, 0x4b, 0x05, 0x06]],
  [0, [0x50, 0x4b, 0x07, 0x08]],
];
// Old binary Office (doc, xls, ppt): the OLE2 compound file header.
const OLE2: Signature[] = [[0, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]]];
const PNG: Signature[] = [[0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]]];
const JPEG: Signature[] = [[0, [0xff, 0xd8, 0xff]]];
const GIF: Signature[] = [
  [0, ascii('GIF87a')],
  [0, ascii('GIF89a')],
];
const RAR: Signature[] = [[0, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]]];
const SEVEN_ZIP: Signature[] = [[0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]]];
const GZIP: Signature[] = [[0, [0x1f, 0x8b]]];
const TAR: Signature[] = [[257, ascii('ustar')]];

const SIGNATURES: Record<string, Signature[] | 'text'> = {
  pdf: PDF,
  zip: ZIP,
  zipx: ZIP,
  docx: ZIP,
  xlsx: ZIP,
  pptx: ZIP,
  odt: ZIP,
  doc: OLE2,
  xls: OLE2,
  ppt: OLE2,
  png: PNG,
  jpg: JPEG,
  jpeg: JPEG,
  gif: GIF,
  rar: RAR,
  '7z': SEVEN_ZIP,
  gz: GZIP,
  gzip: GZIP,
  'tar-gz': GZIP,
  tar: TAR,
  // Plain text formats have no magic number: a NUL byte in the head says "binary".
  txt: 'text',
  csv: 'text',
  rtf: 'text',
};

const startsWith = (head: Uint8Array, [offset, bytes]: Signature): boolean =>
  head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);

/**
 * True when `head` (the first FILE_SIGNATURE_HEAD_BYTES bytes, or the whole file when shorter) fits
 * the extension (as `fileExtension` spells it). An empty file fits nothing; an unknown extension fits
 * nothing (the extension list is checked first).
 */
export const matchesFileSignature = (extension: string, head: Uint8Array): boolean => {
  const rule = SIGNATURES[extension];
  if (!rule || head.length === 0) return false;
  if (rule === 'text') return !head.includes(0);
  return rule.some((signature) => startsWith(head, signature));
};
