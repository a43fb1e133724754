import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { SiteSettings } from '@app/domain/settings';
import { SITE_SETTINGS_PATH } from '@app/domain/settings/rules';
import { apiFetch, takePageAnswer } from '@/lib/api-client';
import { settingsKeys } from './keys';
import { applyThemeColor } from '../hooks/use-theme-color';

const settingsSchema = () => import('@app/domain/settings').then((m) => m.siteSettingsSchema);

/** SPEC §7: site settings, no auth needed. */
export const getSiteSettings = (): Promise<SiteSettings> =>
  apiFetch(SITE_SETTINGS_PATH, {
    auth: false,
    schema: settingsSchema,
    // Every first paint waits for the settings: the schema checks them right after (ADR 0028).
    check: 'after',
  });

export const siteSettingsQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.site(), queryFn: getSiteSettings, staleTime: Infinity });

export const useSiteSettings = () => useQuery(siteSettingsQueryOptions());

/**
 * Before the first render (ADR 0057): the settings the page brought go into the cache at once, so the
 * startup (SPEC §2) passes its first step in the first render instead of a task later; without them the
 * call leaves while the first route module is still loading.
 */
export const primeSiteSettings = (queryClient: QueryClient): void => {
  const settings = takePageAnswer<SiteSettings>(SITE_SETTINGS_PATH);
  if (settings === undefined) void queryClient.prefetchQuery(siteSettingsQueryOptions());
  else queryClient.setQueryData(settingsKeys.site(), settings);
  // ADR 0101: the theme is checked while the page is still its skeleton (cheap), not in the first commit.
  applyThemeColor(settings?.application_theme.mainColor);
};
