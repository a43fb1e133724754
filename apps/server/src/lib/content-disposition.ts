/**
 * RFC 6266 / RFC 5987: `attachment` with an ASCII fallback and the exact UTF-8 name. One rule for every
 * download, streamed by the server or signed for the object store (ADR 0080).
 */
export const attachmentDisposition = (name: string): string => {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
};
