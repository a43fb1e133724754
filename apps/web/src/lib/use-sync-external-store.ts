// React 18+ has useSyncExternalStore built in; the `use-sync-external-store/shim` package (used by
// wouter for older Reacts) only re-exports it there. vite.config.ts points the shim here (ADR 0028).
export { useSyncExternalStore } from 'react';
