/**
 * Query keys of the chat resource (one owner of its keys, ADR 0056): an order's messages, the unread
 * counts the server carries, the writer's online state. One side per tab (a customer or a staff member),
 * and a sign-out clears the cache, so the keys do not name the side.
 */
export const chatKeys = {
  all: ['chat'] as const,
  windows: () => [...chatKeys.all, 'messages'] as const,
  window: (orderId: number) => [...chatKeys.windows(), orderId] as const,
  unreads: () => [...chatKeys.all, 'unread'] as const,
  unread: (orderId: number) => [...chatKeys.unreads(), orderId] as const,
  unreadAll: () => [...chatKeys.unreads(), 'all'] as const,
  writerOnline: (orderId: number) => [...chatKeys.all, 'writer-online', orderId] as const,
};
