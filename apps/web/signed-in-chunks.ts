import type { Plugin } from 'vite';

/** Every route module of the signed-in customer, and the shell's part that only a signed-in customer loads. */
const SIGNED_IN_ROUTES =
  /src[\\/]app[\\/]routes[\\/](dashboard|order-info|order-info-lookup|loyalty|transactions|profile|customer-nav)\.tsx$/;
/** The pages a returning customer opens daily (issue 27, ADR 0098), the shell around them, and what the first render asks of them. */
const DAILY_ROUTES =
  /src[\\/](app[\\/]routes[\\/](dashboard|order-info|loyalty|customer-nav)\.tsx|features[\\/]orders[\\/]api[\\/]first-data\.ts)$/;
/** Each daily page, and the shell's part; the first data's prefetch is needed by the dashboard and the order page. */
const DAILY_PAGES: [string, RegExp][] = [
  ['shell', /src[\\/]app[\\/]routes[\\/]customer-nav\.tsx$/],
  ['dashboard', /src[\\/](app[\\/]routes[\\/]dashboard\.tsx|features[\\/]orders[\\/]api[\\/]first-data\.ts)$/],
  ['orderinfo', /src[\\/](app[\\/]routes[\\/]order-info\.tsx|features[\\/]orders[\\/]api[\\/]first-data\.ts)$/],
  ['loyalty', /src[\\/]app[\\/]routes[\\/]loyalty\.tsx$/],
];
/** The sign-in pages, whose later code (the forgot-password dialog) stays as it is too. */
const SIGN_IN_ROUTES = /src[\\/]app[\\/]routes[\\/](login|reset-password)\.tsx$/;
/** The wizard, whose later steps share much with the signed-in pages (dialogs, forms, the answers' schemas). */
const WIZARD_ROUTE = /src[\\/]app[\\/]routes[\\/]order\.tsx$/;

/**
 * What the wizard loads after its first paint without any input: the price check's schemas (ADR 0065), the
 * price area and the due date of its first step.
 */
const WIZARD_AT_ONCE =
  /(packages[\\/]domain[\\/]src[\\/]order-form[\\/]index\.ts|src[\\/]features[\\/]order-wizard[\\/]components[\\/](price-area|due-date)\.tsx)$/;

/** The names a statement takes from its target; null: all of it (`*`, `* as X`). */
const namesIn = (s: Statement): string[] | null =>
  s.names === null || s.names.some(([from]) => from === '*') ? null : s.names.map(([from]) => from);

/** Route module name → the built file that holds it (read by the server with the manifest). */
export const ROUTE_CHUNKS_FILE = '.vite/route-chunks.json';

/** `import … from "x"`, `export … from "x"`, `import "x"`, in the transformed code of a module. */
const STATEMENT =
  /(?:^|[;\s])(import|export)\s*((?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*\s*as\s+[\w$]+|\*|[\w$]+))?\s*(?:from\s*)?["']([^"']+)["']/g;
const COMMENTS = /\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm;

/** One import or re-export of a module: its target, and the names it takes (`[name in target, name here]`; null: all). */
interface Statement {
  reexport: boolean;
  target: string;
  names: [string, string][] | null;
}

/**
 * `{ a, b as c }` → [a, a], [b, c]; `X` → [default, X]; `* as X` → [*, X] (the whole module, under one
 * name: a barrel such as radix-ui's index imports each primitive so and exports the name); `*` → null (all).
 */
const clauseNames = (clause: string | undefined): [string, string][] | null => {
  if (clause === undefined) return [];
  const namespace = /^\*\s*as\s+([\w$]+)$/.exec(clause.trim())?.[1];
  if (namespace !== undefined) return [['*', namespace]];
  if (clause.includes('*')) return null;
  const names: [string, string][] = [];
  const trimmed = clause.trim();
  const local = /^([\w$]+)/.exec(trimmed)?.[1];
  if (local !== undefined) names.push(['default', local]);
  const braces = /\{([^}]*)\}/.exec(trimmed)?.[1];
  for (const part of braces?.split(',') ?? []) {
    const [from, as] = part
      .trim()
      .replace(/^type\s+/, '')
      .split(/\s+as\s+/);
    if (from) names.push([from.trim(), (as ?? from).trim()]);
  }
  return names;
};

/**
 * Issue 27 (ADR 0100): the chunks of the daily signed-in pages (/dashboard, the order page, /loyalty and
 * the signed-in shell), from the module graph once it is built. Left to itself the bundler split them into
 * about 60 chunks of 1–5 kB: one request each (six at a time on HTTP/1.1), most of them on the way to the
 * first paint, and some found only once the chunk before had run (the answers' schemas, the chat). Now
 * what those pages load, at once or later, is in a few chunks, preloaded with the page (web-static.ts):
 * `customer`, what no visitor's page loads, and one `customer-…` chunk for each combination of the
 * visitor's pages that load a module too (`customer-wizard`: the wizard's later steps; `customer-order-
 * sign-in`: /order's and /login's first code, …). So a visitor's page loads exactly what it loaded before,
 * in fewer pieces. What the entry runs stays in it, and what only the other signed-in pages (profile,
 * transactions) load stays where the bundler put it (the phone input). "Load" is followed through the
 * import statements' names: a context's index.ts passes on only what its importer names, as the bundler's
 * tree-shaking keeps only that.
 * ADR 0101: each of those is split once more by what the daily pages need to draw (their static imports):
 * `customer` holds what the shell or two pages need, `customer-dashboard`, `customer-orderinfo`,
 * `customer-loyalty` what one page alone needs, `customer-later` what only a later import reaches (the
 * messenger, the revisions, the dialogs, the answers' schemas and zod), prefetched once the page is drawn.
 */
export const signedInChunks = () => {
  const chunkOf = new Map<string, string>();
  const plugin: Plugin = {
    name: 'signed-in-chunks',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    async buildEnd() {
      chunkOf.clear();
      const ids = [...this.getModuleIds()];
      const code = (id: string) => (this.getModuleInfo(id)?.code ?? '').replace(COMMENTS, '');
      const statements = new Map<string, Statement[]>();
      /** What a module imports and passes on, each with the names it takes. */
      const statementsOf = async (id: string): Promise<Statement[]> => {
        const known = statements.get(id);
        if (known) return known;
        const found: Statement[] = [];
        for (const match of code(id).matchAll(STATEMENT)) {
          const target = (await this.resolve(match[3] as string, id))?.id;
          if (target !== undefined) found.push({ reexport: match[1] === 'export', target, names: clauseNames(match[2]) });
        }
        // Whatever the statements did not name (a style sheet, a virtual module): all of it.
        const named = new Set(found.map((f) => f.target));
        for (const target of this.getModuleInfo(id)?.importedIds ?? [])
          if (!named.has(target)) found.push({ reexport: false, target, names: null });
        statements.set(id, found);
        return found;
      };
      /**
       * Every module whose own code `roots` use, as tree-shaking keeps it: a module asked only for names it
       * passes on from others (a context's index.ts, lucide's list of icons) leads to those others only.
       * Through dynamic imports too when asked.
       */
      const walk = async (roots: RegExp, dynamic: boolean, stop: (id: string) => boolean = () => false): Promise<Set<string>> => {
        const used = new Set<string>();
        const whole = new Set<string>();
        const asked = new Map<string, Set<string>>();
        const visit = async (id: string, names: string[] | null): Promise<void> => {
          if (stop(id) || whole.has(id)) return;
          const before = asked.get(id) ?? new Set<string>();
          const fresh = names === null ? null : names.filter((n) => !before.has(n));
          if (fresh !== null && fresh.length === 0) return;
          if (fresh === null) whole.add(id);
          else asked.set(id, new Set([...before, ...fresh]));
          const all = await statementsOf(id);
          let own = fresh === null;
          for (const name of fresh ?? []) {
            const named = all.find((s) => s.reexport && s.names?.some(([, as]) => as === name));
            const star = all.find((s) => s.reexport && s.names === null && (this.getModuleInfo(s.target)?.exports ?? []).includes(name));
            // A name bound to a whole module (`import * as Dialog from …; export { Dialog }`): that module.
            const namespace = all.find((s) => !s.reexport && s.names?.some(([from, as]) => from === '*' && as === name));
            const from = named?.names?.find(([, as]) => as === name)?.[0];
            if (named) await visit(named.target, from === '*' ? null : [from as string]);
            else if (star) await visit(star.target, [name]);
            else if (namespace) await visit(namespace.target, null);
            else own = true;
          }
          if (own && !used.has(id)) {
            used.add(id);
            for (const s of all) if (!s.reexport) await visit(s.target, namesIn(s));
            if (dynamic) for (const target of this.getModuleInfo(id)?.dynamicallyImportedIds ?? []) await visit(target, null);
          }
          if (fresh === null) for (const s of all) if (s.reexport) await visit(s.target, namesIn(s));
        };
        for (const id of ids.filter((i) => roots.test(i))) await visit(id, null);
        return used;
      };
      // Each walk stops at the entry's own modules: they are loaded already, and through the router they
      // lead to every page.
      const entry = await walk(/src[\\/]main\.tsx$/, false);
      const walkFrom = (roots: RegExp, dynamic: boolean, also: (id: string) => boolean = () => false) =>
        walk(roots, dynamic, (id) => (entry.has(id) && !roots.test(id)) || also(id));
      const otherSignedIn = (id: string) => SIGNED_IN_ROUTES.test(id) && !DAILY_ROUTES.test(id);
      const daily = await walkFrom(DAILY_ROUTES, true, otherSignedIn);
      // What each daily page needs before it can draw (its static imports): a module that one page alone
      // needs goes with that page; one that the shell or two pages need, with the shell; one that only a
      // later import reaches (a dialog, the messenger, a form), to the later chunks, fetched once the page
      // is drawn (prefetch-later-code.ts).
      const firstOf: [string, Set<string>][] = [];
      for (const [page, pattern] of DAILY_PAGES) {
        firstOf.push([page, await walkFrom(pattern, false, (id) => otherSignedIn(id) || (DAILY_ROUTES.test(id) && !pattern.test(id)))]);
      }
      const partOf = (id: string): string => {
        const pages = firstOf.filter(([, set]) => set.has(id)).map(([page]) => page);
        if (pages.length === 0) return 'later';
        return pages.length === 1 && pages[0] !== 'shell' ? (pages[0] as string) : '';
      };
      // Who else loads a module the daily pages load: each combination is one chunk, so that none of them
      // loads anything it did not load before, only in fewer pieces.
      const others: [string, Set<string>][] = [
        ['order', await walkFrom(WIZARD_ROUTE, false)],
        ['wizard-at-once', await walkFrom(WIZARD_AT_ONCE, false)],
        ['sign-in', await walkFrom(SIGN_IN_ROUTES, false)],
        ['sign-in-later', await walkFrom(SIGN_IN_ROUTES, true)],
        ['wizard', await walkFrom(WIZARD_ROUTE, true)],
      ];
      for (const id of daily) {
        const with_ = others.filter(([, set]) => set.has(id)).map(([name]) => name);
        // A module of a visitor's first page is part of what that page loads later too: the first says it.
        const key = with_.filter(
          (name) => !(name === 'wizard' && with_.includes('order')) && !(name === 'sign-in-later' && with_.includes('sign-in')),
        );
        // What /order draws with stays in one piece for it (split by the daily pages it cost /order's
        // first-paint budget a file and 0.2 kB of gzip): the daily pages take such a module first, whichever
        // of them needs it (a few kB).
        chunkOf.set(id, ['customer', key.includes('order') ? '' : partOf(id), ...key].filter(Boolean).join('-'));
      }
    },
    // A route module merged into a chunk with others has no chunk of its own in the manifest: the server
    // finds the chunk that holds each route module here (apps/server/src/plugins/web-static.ts).
    generateBundle(_options, bundle) {
      const routes: Record<string, string> = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const id of chunk.moduleIds) {
          const route = /src[\\/]app[\\/]routes[\\/]([a-z-]+)\.tsx$/.exec(id)?.[1];
          if (route) routes[route] = chunk.fileName;
        }
      }
      this.emitFile({ type: 'asset', fileName: ROUTE_CHUNKS_FILE, source: JSON.stringify(routes) });
    },
  };
  return { plugin, name: (id: string) => chunkOf.get(id) ?? null };
};
