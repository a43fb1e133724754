/**
 * The landmark holding `element` (main, a form's region, a dialog…), else undefined (the body): a popover
 * drawn there keeps every part of the page inside a landmark (axe "region").
 */
export const landmarkOf = (element: Element | null): HTMLElement | undefined =>
  element?.closest<HTMLElement>('main, aside, nav, header, footer, [role="region"], [role="dialog"]') ?? undefined;
