import { Fragment, type ReactNode } from 'react';
import { EMOJI } from '@app/domain/chat/rules';
// ADR 0095: SPEC's 39 emoji drawn from Twemoji (@twemoji/svg; graphics CC-BY 4.0 by Twitter, Inc. and
// contributors), one SVG file each in the build (vite.config.ts keeps them files, never inlined), so they look
// the same on every machine, with or without a colour-emoji font. Only these 39 are imported, so only
// these 39 are copied into the build.
import u1f600 from '@twemoji/svg/1f600.svg';
import u1f603 from '@twemoji/svg/1f603.svg';
import u1f604 from '@twemoji/svg/1f604.svg';
import u1f601 from '@twemoji/svg/1f601.svg';
import u1f606 from '@twemoji/svg/1f606.svg';
import u1f605 from '@twemoji/svg/1f605.svg';
import u1f602 from '@twemoji/svg/1f602.svg';
import u1f642 from '@twemoji/svg/1f642.svg';
import u1f609 from '@twemoji/svg/1f609.svg';
import u1f60a from '@twemoji/svg/1f60a.svg';
import u1f607 from '@twemoji/svg/1f607.svg';
import u1f60d from '@twemoji/svg/1f60d.svg';
import u1f929 from '@twemoji/svg/1f929.svg';
import u1f618 from '@twemoji/svg/1f618.svg';
import u1f60b from '@twemoji/svg/1f60b.svg';
import u1f60e from '@twemoji/svg/1f60e.svg';
import u1f914 from '@twemoji/svg/1f914.svg';
import u1f917 from '@twemoji/svg/1f917.svg';
import u1f610 from '@twemoji/svg/1f610.svg';
import u1f60f from '@twemoji/svg/1f60f.svg';
import u1f60c from '@twemoji/svg/1f60c.svg';
import u1f614 from '@twemoji/svg/1f614.svg';
import u1f622 from '@twemoji/svg/1f622.svg';
import u1f62d from '@twemoji/svg/1f62d.svg';
import u1f624 from '@twemoji/svg/1f624.svg';
import u1f621 from '@twemoji/svg/1f621.svg';
import u1f631 from '@twemoji/svg/1f631.svg';
import u1f633 from '@twemoji/svg/1f633.svg';
import u1f973 from '@twemoji/svg/1f973.svg';
import u1f634 from '@twemoji/svg/1f634.svg';
import u1f44d from '@twemoji/svg/1f44d.svg';
import u1f44e from '@twemoji/svg/1f44e.svg';
import u1f44f from '@twemoji/svg/1f44f.svg';
import u1f64f from '@twemoji/svg/1f64f.svg';
import u1f4aa from '@twemoji/svg/1f4aa.svg';
import u1f44c from '@twemoji/svg/1f44c.svg';
import u270c from '@twemoji/svg/270c.svg';
import u2764 from '@twemoji/svg/2764.svg';
import u1f389 from '@twemoji/svg/1f389.svg';

/** Twemoji's file name of an emoji: its code points in hex joined by "-", U+FE0F dropped unless joined by U+200D. */
const twemojiName = (emoji: string): string => {
  const points = [...emoji].map((c) => c.codePointAt(0) ?? 0);
  const kept = points.includes(0x200d) ? points : points.filter((p) => p !== 0xfe0f);
  return kept.map((p) => p.toString(16)).join('-');
};

const TWEMOJI: Readonly<Record<string, string>> = {
  '1f600': u1f600,
  '1f603': u1f603,
  '1f604': u1f604,
  '1f601': u1f601,
  '1f606': u1f606,
  '1f605': u1f605,
  '1f602': u1f602,
  '1f642': u1f642,
  '1f609': u1f609,
  '1f60a': u1f60a,
  '1f607': u1f607,
  '1f60d': u1f60d,
  '1f929': u1f929,
  '1f618': u1f618,
  '1f60b': u1f60b,
  '1f60e': u1f60e,
  '1f914': u1f914,
  '1f917': u1f917,
  '1f610': u1f610,
  '1f60f': u1f60f,
  '1f60c': u1f60c,
  '1f614': u1f614,
  '1f622': u1f622,
  '1f62d': u1f62d,
  '1f624': u1f624,
  '1f621': u1f621,
  '1f631': u1f631,
  '1f633': u1f633,
  '1f973': u1f973,
  '1f634': u1f634,
  '1f44d': u1f44d,
  '1f44e': u1f44e,
  '1f44f': u1f44f,
  '1f64f': u1f64f,
  '1f4aa': u1f4aa,
  '1f44c': u1f44c,
  '270c': u270c,
  '2764': u2764,
  '1f389': u1f389,
};

/** The picture of one of SPEC's 39 emoji (with or without its U+FE0F), else undefined. */
export const emojiImage = (emoji: string): string | undefined => TWEMOJI[twemojiName(emoji)];

/** The credit CC-BY asks for, shown under the picker. */
export const EMOJI_CREDIT = 'Emoji art: Twemoji, CC-BY 4.0';

/**
 * One emoji as a picture. `label` given, the picture is named by it; else its alt text is the emoji itself,
 * so it reads as that emoji and copies as that character.
 */
export function Emoji({
  emoji,
  className = 'inline-block size-[1.25em] align-[-0.25em]',
  decorative = false,
}: {
  emoji: string;
  className?: string;
  /** inside a control that names it already (the picker's "Insert 😀") */
  decorative?: boolean;
}) {
  const src = emojiImage(emoji);
  if (src === undefined) return <>{emoji}</>;
  return <img src={src} alt={decorative ? '' : emoji} draggable={false} className={className} />;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Longest first; an emoji spelled with U+FE0F is found without it too.
const EMOJI_PATTERN = new RegExp(
  `(${[...EMOJI]
    .sort((a, b) => b.length - a.length)
    .map((e) => (e.endsWith('\uFE0F') ? `${escape(e.slice(0, -1))}\uFE0F?` : escape(e)))
    .join('|')})`,
  'u',
);

/** A message's text with SPEC's emoji drawn as pictures; the text itself (and what a copy takes) is unchanged. */
export function EmojiText({ text }: { text: string }): ReactNode {
  const parts = text.split(EMOJI_PATTERN);
  if (parts.length === 1) return text;
  // split() with one capture group: the odd entries are the emoji found.
  return parts.map((part, i) => <Fragment key={i}>{i % 2 === 1 ? <Emoji emoji={part} /> : part}</Fragment>);
}
