import axe from 'axe-core';
import { expect } from 'vitest';

/**
 * Component tests with axe (issue 27, ADR 0097): axe-core on what a test rendered, failing on any
 * violation with its rule and nodes. Colour contrast needs a layout engine, which happy-dom has not: the
 * journeys check it in Chromium; every other rule runs here.
 */
export const expectNoAxeViolations = async (root: Element = document.body): Promise<void> => {
  const result = await axe.run(root, { rules: { 'color-contrast': { enabled: false } }, resultTypes: ['violations'] });
  const found = result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(found).toEqual([]);
};
