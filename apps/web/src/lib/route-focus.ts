/**
 * Focus after a route change (ADR 0042). The page's heading registers itself through its ref
 * (components/ui/page-heading.tsx); the router asks for the focus once the path changed. A lazy page
 * mounts its heading after that: the request waits for it, for a while.
 */
const WAIT_MS = 10_000;
let heading: HTMLElement | null = null;
let pendingSince: number | null = null;

const pending = () => pendingSince !== null && Date.now() - pendingSince < WAIT_MS;

/** The router, after a path change: the page heading takes the focus now, or when it mounts. */
export const focusPageHeading = (): void => {
  if (heading?.isConnected) {
    pendingSince = null;
    heading.focus();
  } else {
    pendingSince = Date.now();
  }
};

/** Nothing waits for a heading any more (the router left). */
export const cancelHeadingFocus = (): void => {
  pendingSince = null;
};

/** A page heading mounted (its ref callback): it takes a focus the router asked for. */
export const registerPageHeading = (element: HTMLElement): void => {
  heading = element;
  if (pending()) {
    pendingSince = null;
    element.focus();
  }
};

/** A page heading leaves; when it held the focus (a page swapping its loading state), the next one takes it. */
export const unregisterPageHeading = (element: HTMLElement): void => {
  if (heading !== element) return;
  heading = null;
  if (document.activeElement === element) pendingSince = Date.now();
};
