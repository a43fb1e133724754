// The toast store: Toaster (toast.tsx) and the lazily loaded ToasterView both read it, so neither imports the other back.
import { useSyncExternalStore } from 'react';

export type ToastTone = 'success' | 'error' | 'info';

interface ToastItem {
  id: number;
  message: string;
  tone: ToastTone;
}

// A module-level store so that code outside components (the session-end handler) can raise a toast.
let items: readonly ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = (next: readonly ToastItem[]): void => {
  items = next;
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

export const toast = {
  show: (message: string, tone: ToastTone = 'info'): void => emit([...items, { id: nextId++, message, tone }]),
  success: (message: string): void => toast.show(message, 'success'),
  error: (message: string): void => toast.show(message, 'error'),
  dismiss: (id: number): void => emit(items.filter((item) => item.id !== id)),
  dismissAll: (): void => emit([]),
};

export const useToastItems = (): readonly ToastItem[] =>
  useSyncExternalStore(
    subscribe,
    () => items,
    () => items,
  );
