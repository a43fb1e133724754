import { useEffect, useState, type ComponentType } from 'react';
import { useToastItems } from './toast-store';

export { toast } from './toast-store';

// Radix Toast loads with the first toast, not with the first paint (ADR 0025). Not React.lazy: a chunk that
// cannot be fetched (the first toast shown while offline) would throw into the root and blank the whole page;
// here the toasts wait, and the load is tried again when the browser is back online.
let loaded: ComponentType | null = null;

/** UI contract "Toasts": see ToasterView; nothing is loaded until there is something to show. */
export function Toaster() {
  const list = useToastItems();
  const [View, setView] = useState<ComponentType | null>(() => loaded);
  const wanted = list.length > 0 && View === null;
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    const attempt = () => {
      import('./toaster-view')
        .then((m) => {
          loaded = m.ToasterView;
          if (live) setView(() => m.ToasterView);
        })
        .catch(() => {
          if (live) window.addEventListener('online', attempt, { once: true });
        });
    };
    attempt();
    return () => {
      live = false;
      window.removeEventListener('online', attempt);
    };
  }, [wanted]);
  if (list.length === 0 || View === null) return null;
  return <View />;
}
