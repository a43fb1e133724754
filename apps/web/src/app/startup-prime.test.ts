import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { INLINE_ANSWERS_ELEMENT_ID } from '@app/domain/routes';
import { customerKeys } from '@/features/customer/api/keys';
import { primeVisitor } from '@/features/customer/api/get-customer';
import { SITE_SETTINGS_PATH } from '@app/domain/settings/rules';
import { primeSiteSettings } from '@/features/settings/api/get-site-settings';
import { settingsKeys } from '@/features/settings/api/keys';
import { deferredCheckCount, deferChecksAgain } from '@/lib/api-client';
import { resetInlineAnswers } from '@/lib/inline-answers';
import { settingsFixture, signIn } from '@/testing/fixtures';

/** ADR 0057: what the startup needs and the page already holds is in the cache before the first render. */
const withPage = (answers: Record<string, unknown>) => {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = INLINE_ANSWERS_ELEMENT_ID;
  script.textContent = JSON.stringify(answers);
  document.body.append(script);
  resetInlineAnswers();
  return () => {
    script.remove();
    resetInlineAnswers();
  };
};

afterEach(() => deferChecksAgain());

describe('the startup primed from the page', () => {
  it('puts the settings the page brought in the cache at once, and queues no check for them (ADR 0065)', () => {
    const cleanup = withPage({ [SITE_SETTINGS_PATH]: settingsFixture });
    try {
      const before = deferredCheckCount();
      const queryClient = new QueryClient();
      primeSiteSettings(queryClient);
      expect(queryClient.getQueryData(settingsKeys.site())).toEqual(settingsFixture);
      expect(deferredCheckCount()).toBe(before);
    } finally {
      cleanup();
    }
  });

  it('asks the server for the settings when the page brought none', () => {
    const queryClient = new QueryClient();
    const prefetch = vi.spyOn(queryClient, 'prefetchQuery').mockResolvedValue(undefined);
    primeSiteSettings(queryClient);
    expect(prefetch).toHaveBeenCalledOnce();
    expect(queryClient.getQueryData(settingsKeys.site())).toBeUndefined();
  });

  it('knows a browser without a token is a visitor, but not one with a token or a magic link to follow', () => {
    const visitor = new QueryClient();
    primeVisitor(visitor, '');
    expect(visitor.getQueryState(customerKeys.current())?.status).toBe('success');
    expect(visitor.getQueryData(customerKeys.current())).toBeNull();

    const magic = new QueryClient();
    primeVisitor(magic, '?magicLink=abc');
    expect(magic.getQueryState(customerKeys.current())).toBeUndefined();

    signIn();
    const customer = new QueryClient();
    primeVisitor(customer, '');
    expect(customer.getQueryState(customerKeys.current())).toBeUndefined();
  });
});
