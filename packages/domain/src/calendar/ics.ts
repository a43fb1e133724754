// Calendar files (RFC 5545) for an order's deadline and a revision's due date (ADR 0044, 0045).
/** `20261123T200000Z`: UTC, so every calendar shows the moment right in its own time zone. */
const icsDateTime = (d: Date): string =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** RFC 5545 §3.3.11: backslash, semicolon, comma and newlines are escaped in text values. */
const escapeText = (s: string): string => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** RFC 5545 §3.1: lines of at most 75 octets, continued with CRLF and a space. */
const fold = (line: string): string => {
  const bytes = new TextEncoder().encode(line);
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const ch of line) {
    const n = new TextEncoder().encode(ch).length;
    if (size + n > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += ch;
    size += n;
  }
  parts.push(current);
  return parts.join('\r\n ');
};

export interface CalendarEvent {
  /** globally unique, stable for the same event (a re-import updates it) */
  uid: string;
  title: string;
  description: string;
  /** the moment: the deadline or due date */
  at: Date;
  url: string;
  /** when the file is made */
  now: Date;
  /** the customer's IANA time zone, named for calendars that show it (X-WR-TIMEZONE) */
  timeZone: string;
}

/**
 * One VEVENT at the moment `at` (a 30-minute slot ending at it) with a reminder a day before. Times are
 * UTC (ADR 0045): correct in every time zone without shipping time-zone rules; the customer's zone is
 * named for display.
 */
export const calendarFile = (e: CalendarEvent): string =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Writing Service//Orders//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-TIMEZONE:${e.timeZone}`,
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    `DTSTAMP:${icsDateTime(e.now)}`,
    `DTSTART:${icsDateTime(new Date(e.at.getTime() - 30 * 60_000))}`,
    `DTEND:${icsDateTime(e.at)}`,
    `SUMMARY:${escapeText(e.title)}`,
    `DESCRIPTION:${escapeText(e.description)}`,
    `URL:${e.url}`,
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    `DESCRIPTION:${escapeText(e.title)}`,
    'TRIGGER:-P1D',
    'END:VALARM',
    'END:VEVENT',
    'END:VCALENDAR',
  ]
    .map(fold)
    .join('\r\n') + '\r\n';
