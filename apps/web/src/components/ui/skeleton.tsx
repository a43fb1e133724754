import { PAGE_SKELETON_HTML, SHELL_SKELETON_HTML } from '@app/domain/ui';

/**
 * Issue 27: a signed-in page loading, as the shell's frame with placeholders (the same markup the server
 * puts in the page before any script, packages/domain ui/skeleton). A constant of ours, never user data.
 */
export function ShellSkeleton() {
  return <div dangerouslySetInnerHTML={{ __html: SHELL_SKELETON_HTML }} />;
}

/** The page's part alone, inside the shell, while the page's code loads; announced as loading. */
export function PageSkeleton() {
  return <div role="status" aria-label="Loading" aria-busy="true" dangerouslySetInnerHTML={{ __html: PAGE_SKELETON_HTML }} />;
}
