/**
 * Country flags (ADR 0091): the 4×3 SVGs of the `flag-icons` package through its style sheet (`fi fi-xx`),
 * loaded with the code that shows flags, never with a first paint. Each flag is a file of its own, served
 * from this site (vite.config.ts keeps them out of the style sheet), fetched only when it is seen.
 * Emoji flags are not used: Windows draws none, and a Linux desktop without a colour emoji font neither.
 */
import 'flag-icons/css/flag-icons.min.css';

/** The class drawing the flag of an ISO 3166-1 alpha-2 code (the set draws a grey flag for one it lacks). */
export const flagClass = (iso: string): string => `fi fi-${iso.toLowerCase()}`;
