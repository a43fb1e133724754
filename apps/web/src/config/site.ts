/** The name in the header and the document title (UI contract "Shell"); the server's skeleton shows it too. */
export { SITE_NAME } from '@app/domain/ui';
