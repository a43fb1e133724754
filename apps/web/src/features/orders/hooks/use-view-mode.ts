import { useCallback, useState } from 'react';

export type ViewMode = 'grid' | 'list';
const STORAGE_KEY = 'ordersView';

const readMode = (): ViewMode => {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === 'list' ? 'list' : 'grid';
  } catch {
    return 'grid';
  }
};

/** SPEC §2 "Display: grid or list view", remembered in this browser (a preference, not server data). */
export const useViewMode = (): [ViewMode, (mode: ViewMode) => void] => {
  const [mode, setMode] = useState<ViewMode>(readMode);
  const choose = useCallback((next: ViewMode) => {
    setMode(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Without storage the choice lasts as long as the page.
    }
  }, []);
  return [mode, choose];
};
