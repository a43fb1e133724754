import { renderToString } from 'react-dom/server';
import { AppTree } from '@/app/app-tree';
import { createRouterHandle, preloadFirstPage } from '@/app/router';
import { primeVisitor } from '@/features/customer/api/get-customer';
import { primeSiteSettings } from '@/features/settings/api/get-site-settings';
import { withoutAnswerChecks } from '@/lib/api-client';
import { provideInlineAnswers } from '@/lib/inline-answers';
import { createQueryClient } from '@/lib/query-client';

/**
 * The server's render of a visitor's first page (ADR 0064): the same tree the browser renders, from the
 * same answers the page carries (ADR 0040), as HTML the browser paints before any script has run and
 * then hydrates. `search` is the query string with its `?` (as `location.search`), or ''.
 */
export const render = async (pathname: string, search: string, answers: Record<string, unknown>): Promise<string> => {
  await preloadFirstPage({ pathname, search });
  // From here on synchronous: no other page's render can interleave with this one's answers.
  provideInlineAnswers(answers);
  const queryClient = createQueryClient();
  try {
    return withoutAnswerChecks(() => {
      primeSiteSettings(queryClient);
      primeVisitor(queryClient, search);
      return renderToString(<AppTree queryClient={queryClient} handle={createRouterHandle()} location={{ pathname, search }} />);
    });
  } finally {
    provideInlineAnswers({});
    queryClient.clear();
  }
};
