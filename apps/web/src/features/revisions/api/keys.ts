/** Query keys of the revisions feature (one factory per feature, DESIGN "Layout"). */
export const revisionKeys = {
  all: ['revisions'] as const,
  categories: () => [...revisionKeys.all, 'categories'] as const,
  levels: () => [...revisionKeys.all, 'levels'] as const,
  lists: (orderId: number) => [...revisionKeys.all, 'list', orderId] as const,
  list: (orderId: number, page: number) => [...revisionKeys.lists(orderId), page] as const,
  files: (revisionId: number, side: 'customers' | 'writers') => [...revisionKeys.all, 'files', revisionId, side] as const,
};
