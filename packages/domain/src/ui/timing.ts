/** SPEC §9 "Narrow-screen threshold": below this width the layout is narrow. */
export const NARROW_SCREEN_MAX_PX = 992;
/** SPEC §2 / §9: modals appear after this delay. */
export const MODAL_DELAY_MS = 200;
/** SPEC §9: logout follows account deletion after this delay. */
export const ACCOUNT_DELETION_REDIRECT_MS = 3000;
