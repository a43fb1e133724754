import type { ReactNode } from 'react';

/**
 * SPEC §3: five stickers, ids 1 to 5 (CONTRACT). Our own drawings, plain SVG: no image request, crisp at
 * any size, coloured by the site's theme where it fits.
 */
export const STICKERS: readonly { id: number; name: string; art: ReactNode }[] = [
  {
    id: 1,
    name: 'Thumbs up',
    art: (
      <>
        <circle cx="32" cy="32" r="30" fill="#fde68a" />
        <path d="M20 30h7v20h-7z" fill="#b45309" />
        <path
          d="M28 30l8-14c3-1 5 1 5 4l-2 8h9c3 0 5 3 4 6l-4 13c-1 2-3 3-5 3H28z"
          fill="#f59e0b"
          stroke="#92400e"
          strokeWidth="2"
          strokeLinejoin="round"
        />
      </>
    ),
  },
  {
    id: 2,
    name: 'Heart',
    art: (
      <>
        <circle cx="32" cy="32" r="30" fill="#fecdd3" />
        <path d="M32 50S14 39 14 26c0-6 5-10 10-10 4 0 7 2 8 5 1-3 4-5 8-5 5 0 10 4 10 10 0 13-18 24-18 24z" fill="#e11d48" />
        <path d="M22 24c1-3 3-4 5-4" stroke="#fff" strokeWidth="3" strokeLinecap="round" fill="none" />
      </>
    ),
  },
  {
    id: 3,
    name: 'Happy face',
    art: (
      <>
        <circle cx="32" cy="32" r="30" fill="#facc15" />
        <circle cx="23" cy="26" r="4" fill="#422006" />
        <circle cx="41" cy="26" r="4" fill="#422006" />
        <path d="M19 37c3 8 9 11 13 11s10-3 13-11z" fill="#7c2d12" />
        <circle cx="16" cy="36" r="4" fill="#fb923c" opacity=".6" />
        <circle cx="48" cy="36" r="4" fill="#fb923c" opacity=".6" />
      </>
    ),
  },
  {
    id: 4,
    name: 'Star: great job',
    art: (
      <>
        <circle cx="32" cy="32" r="30" fill="#ddd6fe" />
        <path
          d="M32 10l6.5 13.5 14.5 2-10.5 10 2.5 14.5L32 43l-13 7 2.5-14.5L11 25.5l14.5-2z"
          fill="#7c3aed"
          stroke="#4c1d95"
          strokeWidth="2"
          strokeLinejoin="round"
        />
      </>
    ),
  },
  {
    id: 5,
    name: 'Thank you',
    art: (
      <>
        <circle cx="32" cy="32" r="30" fill="#bbf7d0" />
        <rect x="12" y="20" width="40" height="24" rx="6" fill="#16a34a" />
        <path d="M22 33l6 6 14-14" stroke="#fff" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" fill="none" />
        <path d="M12 44l6-2v8z" fill="#16a34a" />
      </>
    ),
  },
];

export const stickerName = (id: number): string => STICKERS.find((s) => s.id === id)?.name ?? `Sticker ${id}`;

/** A sticker drawn at `size` pixels; `label` given, it is an image with that name, else decorative. */
export function Sticker({ id, size = 96, label }: { id: number; size?: number; label?: string }) {
  const sticker = STICKERS.find((s) => s.id === id);
  return (
    <svg
      viewBox="0 0 64 64"
      width={size}
      height={size}
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
    >
      {sticker?.art ?? <circle cx="32" cy="32" r="30" fill="#e2e8f0" />}
    </svg>
  );
}
