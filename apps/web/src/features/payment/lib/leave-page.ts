/**
 * The payment redirect is a full page load: /checkout and /pp/sdk are the server's (SPEC §7), not
 * routes of the web app. One function, so that tests can watch where the page was sent.
 */
export const leavePageFor = (url: string): void => {
  window.location.assign(url);
};
