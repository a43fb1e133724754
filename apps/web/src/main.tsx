import '@/lib/zod-config';
import './index.css';
import { setNonce } from 'get-nonce';
import { mountApp } from '@/app/app';

// The server puts this response's CSP style nonce here; the dialogs' scroll lock (react-remove-scroll)
// reads it through get-nonce for the one <style> element it inserts.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
if (nonce && nonce !== '__CSP_NONCE__') setNonce(nonce);

const container = document.getElementById('root');
if (container) void mountApp(container);
