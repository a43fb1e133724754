import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { CHAT_PATH } from '@app/domain/chat/rules';
import type { ChatBase } from '../api/chat';
import { StaffSocket, type SocketState } from '../lib/staff-socket';

interface ChatConnection {
  base: ChatBase;
  socket: StaffSocket;
}

const ChatContext = createContext<ChatConnection | null>(null);

/**
 * The console's chat connection: the chat server's base (from the site settings, given by the route)
 * and the one staff socket every open order chat listens on. The socket lives as long as the console.
 */
export function StaffChatProvider({ base, children }: { base: ChatBase; children: ReactNode }) {
  const socket = useMemo(() => new StaffSocket(`${base.ws}${CHAT_PATH.staffSocket}`), [base.ws]);
  useEffect(() => {
    socket.start();
    return () => socket.stop();
  }, [socket]);
  const value = useMemo(() => ({ base, socket }), [base, socket]);
  return <ChatContext.Provider value={value}>{children}</ChatContext.Provider>;
}

export const useChatConnection = (): ChatConnection => {
  const connection = useContext(ChatContext);
  if (!connection) throw new Error('useChatConnection outside StaffChatProvider');
  return connection;
};

/** The socket's state, for the "reconnecting" note. */
export const useSocketState = (socket: StaffSocket): SocketState => {
  const subscribe = useCallback((notify: () => void) => socket.onState(notify), [socket]);
  return useSyncExternalStore(
    subscribe,
    () => socket.state,
    () => socket.state,
  );
};
