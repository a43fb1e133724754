import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SiteSettings } from '@app/domain/settings';
import { apiFetch } from '@/lib/api-client';
import { settingsKeys } from './keys';

export const SITE_SETTINGS_PATH = '/api/en/sites/settings';

/** SPEC §7: site settings, no auth needed. */
export const getSiteSettings = (): Promise<SiteSettings> =>
  apiFetch(SITE_SETTINGS_PATH, {
    auth: false,
    schema: () => import('@app/domain/settings').then((m) => m.siteSettingsSchema),
    // Every first paint waits for the settings: the schema checks them right after (ADR 0028).
    check: 'after',
  });

export const siteSettingsQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.site(), queryFn: getSiteSettings, staleTime: Infinity });

export const useSiteSettings = () => useQuery(siteSettingsQueryOptions());
