import { lazy, Suspense } from 'react';
import { useToastItems } from './toast-store';

export { toast } from './toast-store';

// Radix Toast loads with the first toast, not with the first paint (ADR 0025).
const ToasterView = lazy(() => import('./toaster-view').then((m) => ({ default: m.ToasterView })));

/** UI contract "Toasts": see ToasterView; nothing is loaded until there is something to show. */
export function Toaster() {
  const list = useToastItems();
  if (list.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <ToasterView />
    </Suspense>
  );
}
