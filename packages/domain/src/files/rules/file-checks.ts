// The zod-free half of the files context (ADR 0020).
/** SPEC §5 "Files" and §9: order-form and revision files, and messenger attachments. */
export const ORDER_FILE_EXTENSIONS = [
  'txt',
  'zip',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'rtf',
  'jpeg',
  'png',
  'gif',
  'ppt',
  'pptx',
  'csv',
  'pdf',
  'jpg',
  'odt',
  'rar',
  'zipx',
  '7z',
  'gz',
  'gzip',
  'tar',
  'tar-gz',
] as const;
export const ORDER_FILE_MAX_BYTES = 104_857_600;
export const MESSENGER_FILE_MAX_BYTES = 15 * 1024 * 1024;
/** Messenger attachments: images, documents, spreadsheets, presentations and archives (SPEC §5). */
export const MESSENGER_FILE_EXTENSIONS = [
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'bmp',
  'txt',
  'rtf',
  'pdf',
  'doc',
  'docx',
  'odt',
  'xls',
  'xlsx',
  'csv',
  'ods',
  'ppt',
  'pptx',
  'odp',
  'zip',
  'rar',
  '7z',
  'gz',
  'tar',
] as const;

export const FILE_MESSAGE = {
  orderTooLarge: 'Maximum file size is 100MB',
  messengerTooLarge: 'Maximum file size - 15MB',
  invalidFormat: (extensions: readonly string[]) => `Invalid file format. Acceptable file formats: ${extensions.join(', ')}`,
} as const;

/** The extension as the lists spell it: `report.tar.gz` → `tar-gz`, `Essay.DOCX` → `docx`. */
export const fileExtension = (name: string): string => {
  const lower = name.toLowerCase();
  if (lower.endsWith('.tar.gz')) return 'tar-gz';
  const dot = lower.lastIndexOf('.');
  return dot > 0 ? lower.slice(dot + 1) : '';
};

const check = (file: { name: string; size: number }, extensions: readonly string[], maxBytes: number, tooLarge: string): string | null => {
  if (!extensions.includes(fileExtension(file.name))) return FILE_MESSAGE.invalidFormat(extensions);
  if (file.size > maxBytes) return tooLarge;
  return null;
};

/** null when the file may be attached to an order or revision, else the SPEC §5 message. */
export const validateOrderFile = (file: { name: string; size: number }): string | null =>
  check(file, ORDER_FILE_EXTENSIONS, ORDER_FILE_MAX_BYTES, FILE_MESSAGE.orderTooLarge);

export const validateMessengerFile = (file: { name: string; size: number }): string | null =>
  check(file, MESSENGER_FILE_EXTENSIONS, MESSENGER_FILE_MAX_BYTES, FILE_MESSAGE.messengerTooLarge);

/** SPEC §5 "Sizes are shown as b, kb or mb". */
export const formatFileSize = (bytes: number): string => {
  if (bytes < 1024) return `${bytes} b`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} kb`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} mb`;
};

/** An upload whose first bytes do not fit its extension (ADR 0012). */
export const FILE_CONTENT_MISMATCH_MESSAGE = 'The file content does not match its extension';
/** A multipart upload without a `file` part, or an empty one. */
export const FILE_MISSING_MESSAGE = 'Please attach a file';
/**
 * ADR 0073, not a SPEC text (SPEC §8 has none for a failed upload; the web shows its transport text for
 * any 5xx): the storage could not take the file (a full disk). Answered with 507.
 */
export const FILE_NOT_STORED_MESSAGE = 'The file could not be stored. Please try again later.';
/** ADR 0039, not a SPEC text: an upload that would take the customer's stored files past the quota. */
export const fileQuotaExceededMessage = (quotaBytes: number): string =>
  `Your files have reached the storage limit of ${Math.floor(quotaBytes / (1024 * 1024))}MB. Remove a file you no longer need to upload another.`;
