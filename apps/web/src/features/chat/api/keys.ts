/** Query keys of the chat feature (one factory per feature, DESIGN "Layout"). */
export const chatKeys = {
  all: ['chat'] as const,
  windows: () => [...chatKeys.all, 'messages'] as const,
  window: (orderId: number) => [...chatKeys.windows(), orderId] as const,
  unreads: () => [...chatKeys.all, 'unread'] as const,
  unread: (orderId: number) => [...chatKeys.unreads(), orderId] as const,
  unreadAll: () => [...chatKeys.unreads(), 'all'] as const,
  writerOnline: (orderId: number) => [...chatKeys.all, 'writer-online', orderId] as const,
};
