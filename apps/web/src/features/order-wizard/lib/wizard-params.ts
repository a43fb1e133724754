/** SPEC §2 "/order" query parameters the wizard acts on (the form's own values: `orderFormFromQuery`). */
export interface WizardParams {
  editingId: number | null;
  cloningId: number | null;
  /** CONTRACT: `forceEditing` lets an order be edited past its editable statuses */
  forceEditing: boolean;
  refId: string | null;
  /** `_ym_debug=1` logs the wizard's events (lib/debug.ts) */
  debug: boolean;
  /** a discount code came with the address */
  discountInQuery: boolean;
}

const positiveInt = (raw: string | null): number | null => {
  const n = Number(raw);
  return raw !== null && Number.isInteger(n) && n > 0 ? n : null;
};

export const readWizardParams = (params: URLSearchParams): WizardParams => ({
  editingId: positiveInt(params.get('editingOrderId')),
  cloningId: positiveInt(params.get('cloningOrder')),
  forceEditing: params.has('forceEditing') && params.get('forceEditing') !== '0',
  refId: params.get('ref_id'),
  debug: params.get('_ym_debug') === '1',
  discountInQuery: params.has('discount') || params.has('discountCode'),
});
