// The reference page of bench/lighthouse.mjs: React 19 rendering one heading, nothing else.
/* global document */
import { createElement, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')).render(
  createElement(StrictMode, null, createElement('h1', null, 'Hello from a bare React page')),
);
