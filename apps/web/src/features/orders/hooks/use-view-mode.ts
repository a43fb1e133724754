import { useCallback, useState } from 'react';
import { readStored, writeStored } from '@/lib/persisted';

export type ViewMode = 'grid' | 'list';
const STORAGE_KEY = 'ordersView';

const readMode = (): ViewMode => (readStored(STORAGE_KEY) === 'list' ? 'list' : 'grid');

/** SPEC §2 "Display: grid or list view", remembered in this browser (a preference, not server data). */
export const useViewMode = (): [ViewMode, (mode: ViewMode) => void] => {
  const [mode, setMode] = useState<ViewMode>(readMode);
  const choose = useCallback((next: ViewMode) => {
    setMode(next);
    writeStored(STORAGE_KEY, next);
  }, []);
  return [mode, choose];
};
