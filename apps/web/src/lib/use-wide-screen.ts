import { useSyncExternalStore } from 'react';
import { NARROW_SCREEN_MAX_PX } from '@app/domain/ui';

/** SPEC §9: 992 px and wider is the wide layout (the same edge as the CSS `lg:` breakpoint). */
const WIDE_QUERY = `(min-width: ${NARROW_SCREEN_MAX_PX}px)`;

const subscribe = (onChange: () => void): (() => void) => {
  const query = window.matchMedia(WIDE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const isWide = (): boolean => window.matchMedia(WIDE_QUERY).matches;

/**
 * True on a wide screen, following the window as it is resized. For a part that is built differently
 * on a phone (issue 27: the dashboard's filters behind a button), not merely styled: CSS alone would
 * keep both versions in the page. The server draws no page that uses it, so its snapshot is the wide one.
 */
export const useWideScreen = (): boolean => useSyncExternalStore(subscribe, isWide, () => true);
