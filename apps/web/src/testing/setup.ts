import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { toast } from '@/components/ui/toast';
import { server } from './msw-server';

// The first render of a file imports lazy route modules; on a busy 2-core machine that takes a while.
configure({ asyncUtilTimeout: 5000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  toast.dismissAll();
  server.resetHandlers();
  window.localStorage.clear();
  document.documentElement.removeAttribute('style');
});
afterAll(() => server.close());
