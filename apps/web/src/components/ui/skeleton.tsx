import type { ReactNode } from 'react';
import { PAGE_SKELETON_HTML, SHELL_SKELETON_ATTRIBUTE } from '@app/domain/ui';

/** The frame the server drew into the page (packages/domain ui/skeleton), kept before the first render replaces it. */
let kept: string | null = null;

/**
 * ADR 0101: before the app's first render, the shell's skeleton the server put in a signed-in customer's page
 * (a constant of the server's, never user data) is kept, for the startup to show while it waits: the app
 * itself carries no copy of it (its bytes would count on every visitor's first paint).
 */
export const keepServerSkeleton = (container: HTMLElement): void => {
  kept = container.querySelector(`[${SHELL_SKELETON_ATTRIBUTE}]`)?.outerHTML ?? null;
};

/**
 * Issue 27: a signed-in page loading, as the shell's frame with placeholders, as the server drew it; a page
 * the server sent without it (no session hint yet) shows `fallback`.
 */
export function ShellSkeleton({ fallback }: { fallback: ReactNode }) {
  return kept === null ? fallback : <div dangerouslySetInnerHTML={{ __html: kept }} />;
}

/** The page's part alone, inside the shell, while the page's code loads; announced as loading. */
export function PageSkeleton() {
  return <div role="status" aria-label="Loading" aria-busy="true" dangerouslySetInnerHTML={{ __html: PAGE_SKELETON_HTML }} />;
}
