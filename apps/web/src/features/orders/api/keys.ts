/** Query keys of the orders feature (one factory per feature, DESIGN "Layout"; supabase studio style). */
export const orderKeys = {
  all: ['orders'] as const,
  count: () => [...orderKeys.all, 'count'] as const,
  byUid: (uid: string) => [...orderKeys.all, 'uid', uid] as const,
  lists: () => [...orderKeys.all, 'list'] as const,
  /** one page of the list: the category of the path and the CONTRACT query, as sent */
  list: (category: number, query: string) => [...orderKeys.lists(), category, query] as const,
  details: () => [...orderKeys.all, 'detail'] as const,
  detail: (id: number) => [...orderKeys.details(), id] as const,
  files: (id: number, side: 'customers' | 'writers') => [...orderKeys.detail(id), 'files', side] as const,
};
