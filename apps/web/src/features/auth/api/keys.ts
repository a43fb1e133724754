/** Query keys of the auth feature. */
export const authKeys = {
  all: ['auth'] as const,
  magicLink: (token: string) => [...authKeys.all, 'magic-link', token] as const,
};
