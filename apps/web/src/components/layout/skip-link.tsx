/**
 * WCAG 2.4.1 (ADR 0042): signed-in pages repeat the header and the side navigation; the first Tab
 * offers to skip them. It ships with the signed-in navigation's lazy chunk, off /order's first paint.
 */
export function SkipLink({ targetId }: { targetId: string }) {
  return (
    <a
      href={`#${targetId}`}
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(targetId)?.focus();
      }}
      className="sr-only z-50 rounded-md bg-white px-4 py-2 font-medium focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
    >
      Skip to main content
    </a>
  );
}
