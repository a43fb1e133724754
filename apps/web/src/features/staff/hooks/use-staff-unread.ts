import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { SOCKET_EVENT } from '@app/domain/chat/rules';
import { getStaffUnread } from '../api/chat';
import { staffKeys } from '../api/keys';
import { useChatConnection } from './chat-context';

/**
 * Unread customer messages per order for the queue, kept live: a new message, a read or an unread frame
 * on the staff socket, or a reconnect, asks the summary again (one call however many frames arrive).
 */
export const useStaffUnread = () => {
  const { base, socket } = useChatConnection();
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: staffKeys.unread() }), 250);
    };
    const offFrame = socket.onFrame((frame) => {
      if (frame.event === SOCKET_EVENT.newMessage || frame.event === SOCKET_EVENT.read || frame.event === SOCKET_EVENT.unread) refresh();
    });
    const offState = socket.onState((state) => {
      if (state === 'open') refresh();
    });
    return () => {
      clearTimeout(timer);
      offFrame();
      offState();
    };
  }, [socket, queryClient]);
  return useQuery({ queryKey: staffKeys.unread(), queryFn: () => getStaffUnread(base) });
};
