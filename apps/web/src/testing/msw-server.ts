import { setupServer } from 'msw/node';
import { defaultHandlers } from './msw-handlers';

/** One MSW server for the web tests: the network is reached through it only (DESIGN "Tests"). */
export const server = setupServer(...defaultHandlers);
