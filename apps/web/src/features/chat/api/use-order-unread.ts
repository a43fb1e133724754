import { useQuery } from '@tanstack/react-query';
import type { OrderUnread } from '@app/domain/chat';
import { NO_UNREAD } from '../lib/unread';
import { chatKeys } from './keys';
import { getOrderUnread } from './messages';

/** CONTRACT "Chat": one order's unread per chat; the startup socket's event 5 replaces it live. */
export const useOrderUnread = (orderId: number, enabled = true): OrderUnread =>
  useQuery({ queryKey: chatKeys.unread(orderId), queryFn: () => getOrderUnread(orderId), enabled }).data ?? NO_UNREAD;
