import { useState } from 'react';
import { defaultChat } from '@app/domain/chat/rules';
import { Spinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import { useQueryClient } from '@tanstack/react-query';
import type { ChatName } from '@/lib/chat/chats';
import { useWriterOnline } from '@/lib/chat/hooks';
import { chatKeys } from '@/lib/chat/keys';
import { useOrderUnread } from '@/lib/chat/unread-queries';
import { ChatPanel } from './chat-panel';

function Count({ value }: { value: number }) {
  if (value <= 0) return null;
  return (
    <span className="rounded-full bg-primary px-1.5 text-xs font-semibold text-on-primary">
      {value}
      <span className="sr-only"> unread</span>
    </span>
  );
}

const isChat = (value: string | null): value is ChatName => value === 'writer' || value === 'support';

/**
 * The Messages tab of `/orderinfo/{id}/messages` (SPEC §2, §4 "Messages"): the writer and the support
 * chats, each with its unread count; the writer's online dot (polled every 60 s, event 8).
 */
export function MessagesTab({
  orderId,
  hasWriter,
  panel,
  onPanelChange,
}: {
  orderId: number;
  hasWriter: boolean;
  /** `?panel=` (SPEC §2: `support` opens the support chat) */
  panel: string | null;
  onPanelChange: (chat: ChatName) => void;
}) {
  const queryClient = useQueryClient();
  const unread = useOrderUnread('customer', orderId);
  const unreadLoaded = queryClient.getQueryState(chatKeys.unread(orderId))?.status !== 'pending';
  const online = useWriterOnline(orderId, hasWriter);
  // SPEC §4: the chat that opens is chosen once, when the counts are known; live counts never switch
  // it. `?panel=` (the address) always wins.
  const [chosen, setChosen] = useState<ChatName | null>(null);
  const fallback = chosen ?? (unreadLoaded ? defaultChat({ hasWriter, unread, panel }) : null);
  if (chosen === null && fallback !== null) setChosen(fallback);
  const current = isChat(panel) ? panel : fallback;

  if (current === null) {
    return (
      <p role="status" className="flex items-center gap-2 text-slate-700">
        <Spinner /> Loading messages…
      </p>
    );
  }
  return (
    <Tabs<ChatName>
      label="Chats"
      value={current}
      onValueChange={(next) => {
        setChosen(next);
        onPanelChange(next);
      }}
      items={[
        {
          value: 'writer',
          label: 'Writer',
          badge: (
            <>
              {hasWriter && (
                <span className="inline-flex items-center gap-1 text-xs text-slate-700">
                  <span aria-hidden="true" className={`size-2.5 rounded-full ${online ? 'bg-green-600' : 'bg-slate-400'}`} />
                  <span className="max-sm:sr-only">{online ? 'online' : 'offline'}</span>
                </span>
              )}
              <Count value={unread.writer} />
            </>
          ),
          content: <ChatPanel orderId={orderId} chat="writer" hasWriter={hasWriter} />,
        },
        {
          value: 'support',
          label: 'Support',
          badge: <Count value={unread.support} />,
          content: <ChatPanel orderId={orderId} chat="support" hasWriter={hasWriter} />,
        },
      ]}
    />
  );
}
