// The zod-free half of the settings context, for the web app's first chunk (ADR 0020).
/** Theme colours are #rgb or #rrggbb only: the value goes into a CSS custom property. */
/** SPEC §7: the site settings' path (no auth needed); also the key of their answer in a page (ADR 0040). */
export const SITE_SETTINGS_PATH = '/api/en/sites/settings';

export const isSafeThemeColor = (color: string): boolean => /^#(?:[0-9a-fA-F]{3}){1,2}$/.test(color);

/** SPEC §1: site categories. */
export const SITE_CATEGORY = { essay: 1, essayAlt: 2, resume: 3, thesis: 4, content: 5 } as const;
export type SiteCategory = (typeof SITE_CATEGORY)[keyof typeof SITE_CATEGORY];
export const SITE_CATEGORY_IDS = [1, 2, 3, 4, 5] as const;
export const siteCategoryName = (category: number): string =>
  ({ 1: 'Essay', 2: 'Essay', 3: 'Resume', 4: 'Thesis', 5: 'Content' })[category] ?? 'Unknown';

/** CONTRACT "Orders and catalogues": level field per site category. */
export type LevelField = 'academicLevel' | 'resumeLevel' | 'thesisLevel';
export const levelFieldForCategory = (category: number): LevelField =>
  category === SITE_CATEGORY.resume ? 'resumeLevel' : category === SITE_CATEGORY.thesis ? 'thesisLevel' : 'academicLevel';
