/** The name in the header and the document title (UI contract "Shell"). */
export const SITE_NAME = 'Writing Service';
