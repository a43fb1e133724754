/**
 * Issue 27: a signed-in page's loading state, the shell's frame with grey placeholders where the header,
 * the navigation, the heading and the cards will be, instead of a blank page with one spinner. One
 * markup for both sides: the server puts it in a signed-in customer's page before any script has run
 * (a request with the session hint, ADR 0064), and the web app shows the same while its startup and the
 * page's code load (apps/web/src/components/ui/skeleton.tsx). Tailwind classes: apps/web/src/index.css
 * reads this file as a source.
 */
const bar = (extra: string): string => `<div class="animate-pulse rounded-md bg-slate-200 ${extra}"></div>`;
const card = `<div class="flex h-44 flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">${bar('h-4 w-24')}${bar('h-5 w-3/4')}${bar('h-4 w-1/2')}${bar('mt-auto h-9 w-28')}</div>`;

/** The page's part (the heading and three cards), for a page whose code is loading inside the shell. */
export const PAGE_SKELETON_HTML =
  `<div class="flex flex-col gap-6" data-skeleton="page">${bar('h-8 w-48')}${bar('h-11 w-full max-w-xl')}` +
  `<div class="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">${card}${card}${card}</div></div>`;

/** The attribute that marks the shell's skeleton (the web app keeps the server's, ADR 0101). */
export const SHELL_SKELETON_ATTRIBUTE = 'data-skeleton="shell"';

/** The name in the header and the document title (UI contract "Shell"). */
export const SITE_NAME = 'Writing Service';

/** SPEC §2 "Side navigation", in its order: the words the skeleton shows where the navigation will be. */
const NAV_LABELS = ['New Order', 'All Orders', 'Transactions', 'Settings', 'My Bonuses'] as const;
const navItem = (label: string): string =>
  `<div class="flex h-9 items-center gap-3 rounded-md px-3 text-sm font-medium text-slate-700">${bar('size-4 shrink-0')}${label}</div>`;

/**
 * The whole frame: header, navigation (wide screens), and the page's part; announced as loading. The
 * header's "Menu" (narrow screens), the site's name and the navigation's words are there as text (ADR 0101):
 * the page has something to read, and the browser a first contentful paint, before any script has run.
 */
export const SHELL_SKELETON_HTML =
  `<div role="status" aria-label="Loading" aria-busy="true" ${SHELL_SKELETON_ATTRIBUTE} class="flex min-h-dvh flex-col">` +
  `<div class="sticky top-0 border-b border-slate-200 bg-white"><div class="mx-auto flex h-14 max-w-7xl items-center gap-2 px-3 sm:gap-3 sm:px-4">` +
  `<div class="inline-flex items-center gap-2 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 lg:hidden">${bar('size-4')}Menu</div>` +
  `<div class="flex min-w-0 items-center gap-2 text-base font-semibold whitespace-nowrap text-slate-900 sm:text-lg">${bar('size-5')}${SITE_NAME}</div>` +
  `${bar('ml-auto h-9 w-24')}</div></div>` +
  `<div class="mx-auto flex w-full max-w-7xl flex-1 flex-col lg:flex-row">` +
  `<div class="hidden flex-col gap-1 p-3 lg:flex lg:w-60 lg:shrink-0 lg:border-r lg:border-slate-200 lg:py-6">${NAV_LABELS.map(navItem).join('')}</div>` +
  `<div class="min-w-0 flex-1 px-4 py-6 lg:px-8">${PAGE_SKELETON_HTML}</div></div></div>`;
