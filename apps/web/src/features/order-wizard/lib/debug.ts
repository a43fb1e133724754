/** SPEC §2 `_ym_debug=1`: the wizard's analytics events go to the console. */
let enabled = false;

export const setWizardDebug = (on: boolean): void => {
  enabled = on;
};

export const trackWizardEvent = (event: string, data?: unknown): void => {
  if (enabled) console.info('[order-wizard]', event, data ?? '');
};
