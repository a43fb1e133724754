import { readFileSync, statSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { APP_PATH } from '@app/domain';
import { useStyleNonce } from './security';
import { THEME_BOOT_ELEMENT } from './theme-boot';
import { escapeHtml } from '../lib/html';

/** Inline Markdown on escaped text: `code`, **bold**, *emphasis*, [links](https://… or /…). */
const inline = (escaped: string): string =>
  escaped
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*]+)\*/g, '<em>$1</em>')
    .replace(/\[([^\]]+)\]\(((?:https?:\/\/|\/)[^\s)]*)\)/g, '<a href="$2">$1</a>');

/**
 * The operator's text as HTML: Markdown headings (#, ##, ###), paragraphs (blank-line separated),
 * lists (`- ` or `* `) and the inline forms above. Plain text is paragraphs. Everything is escaped first,
 * so the file cannot inject markup or script.
 */
export const renderText = (source: string): { title: string | undefined; html: string } => {
  let title: string | undefined;
  const blocks = source.replace(/\r\n?/g, '\n').split(/\n\s*\n/);
  const html = blocks
    .map((block) => block.trim())
    .filter((block) => block !== '')
    .map((block) => {
      const heading = /^(#{1,3})\s+(.*)$/.exec(block);
      if (heading && !block.includes('\n')) {
        const level = heading[1]?.length ?? 1;
        const text = heading[2] ?? '';
        title ??= level === 1 ? text : undefined;
        return `<h${level}>${inline(escapeHtml(text))}</h${level}>`;
      }
      const lines = block.split('\n');
      if (lines.every((line) => /^\s*[-*]\s+/.test(line))) {
        return `<ul>${lines.map((line) => `<li>${inline(escapeHtml(line.replace(/^\s*[-*]\s+/, '')))}</li>`).join('')}</ul>`;
      }
      return `<p>${inline(escapeHtml(lines.join(' ')))}</p>`;
    })
    .join('\n');
  return { title, html };
};

// ADR 0094: the device's colour scheme, or the customer's choice (`THEME_BOOT` sets data-theme), as the app's.
const STYLE =
  ':root{color-scheme:light dark}:root[data-theme=light]{color-scheme:light}:root[data-theme=dark]{color-scheme:dark}' +
  'body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:light-dark(#0f172a,#f1f5f9);background:light-dark(#fff,#0f172b)}' +
  'main{max-width:42rem;margin:0 auto;padding:2rem 1.25rem 4rem}h1{font-size:1.75rem;line-height:1.25}h2{font-size:1.25rem;margin-top:2rem}' +
  'a{color:light-dark(#1d4ed8,#7795e8)}nav{margin-bottom:1.5rem;font-size:.875rem}code{font-size:.9em}';

/** A file read again only when it changes. */
const watchedText = (file: string) => {
  let cached: { mtimeMs: number; text: string } | undefined;
  return (): string => {
    const { mtimeMs } = statSync(file);
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, text: readFileSync(file, 'utf8') };
    return cached.text;
  };
};

/**
 * ADR 0041: /terms and /privacy, the pages the wizard's terms checkbox links to, from the text files the
 * operator configures (TERMS_FILE, PRIVACY_FILE; defaults in apps/server/legal). Plain HTML with no
 * script, so they open at once in the new tab the checkbox's links open.
 */
export const registerLegalPages = (app: FastifyInstance, files: { termsFile: string; privacyFile: string }): void => {
  const pages = [
    { path: APP_PATH.terms, fallbackTitle: 'Terms of Use', read: watchedText(files.termsFile) },
    { path: APP_PATH.privacy, fallbackTitle: 'Privacy and Cookies Policy', read: watchedText(files.privacyFile) },
  ];
  for (const page of pages) {
    app.get(page.path, async (_request, reply) => {
      const { title, html } = renderText(page.read());
      const nonce = useStyleNonce(reply);
      const doc =
        `<!doctype html><html lang="en"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<meta name="color-scheme" content="light dark">${THEME_BOOT_ELEMENT}<title>${escapeHtml(title ?? page.fallbackTitle)} · Writing Service</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">` +
        `<style nonce="${nonce}">${STYLE}</style></head><body><main><nav><a href="${APP_PATH.order}">Writing Service</a></nav>` +
        `${title === undefined ? `<h1>${escapeHtml(page.fallbackTitle)}</h1>` : ''}${html}</main></body></html>`;
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(doc);
    });
  }
};
