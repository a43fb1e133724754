/** Query keys of the settings feature (one factory per feature, DESIGN "Layout"). */
export const settingsKeys = {
  all: ['settings'] as const,
  site: () => [...settingsKeys.all, 'site'] as const,
};
