import { describe, expect, it } from 'vitest';
import { escapeHtml } from './html';

describe('escapeHtml', () => {
  it('escapes the five characters HTML gives a meaning, and nothing else', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
    expect(escapeHtml('Ünïcode — plain text 100%')).toBe('Ünïcode — plain text 100%');
  });
  it('escapes an ampersand once, so escaped text is not escaped again by accident', () => {
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });
});
