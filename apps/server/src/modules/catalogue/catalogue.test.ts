import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calcsSchema, siteSettingsSchema } from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

const isTwoDecimalAmount = (n: number): boolean => Number.isInteger(Math.round(n * 100)) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-9;

describe('GET /api/en/sites/settings', () => {
  it('answers the seeded settings without a token', async () => {
    const res = await get('/api/en/sites/settings');
    expect(res.statusCode).toBe(200);
    const settings = siteSettingsSchema.parse(res.json());
    expect(settings).toMatchObject({
      idSite: 1,
      siteCategories: [1, 3, 4, 5],
      languageCode: 'en',
      multipayment: true,
      codeCountry: 'us',
      application_theme: { mainColor: '#1d4ed8' },
    });
    expect(settings.payments_rules['1']?.default).toEqual(['paycore', 'paypal', 'fondy', 'paymentwall']);
  });

  it('without PUBLIC_ORIGIN (development, tests) derives the chat URLs from the request host, for the asker alone (ADR 0068)', async () => {
    const res = await get('/api/en/sites/settings', { host: 'writing.example:8080' });
    expect(res.json()).toMatchObject({
      messages_url: 'http://writing.example:8080/chat',
      baseOrderMessengerURL: 'http://writing.example:8080/chat',
      baseWebSocketGatewayURL: 'ws://writing.example:8080/chat',
    });
    // Built from a header the asker chose: no shared cache may keep it.
    expect(res.headers['cache-control']).toBe('private, max-age=60');
  });

  it('reads what an operator changed in site_settings', async () => {
    await t.db.query(
      `UPDATE site_settings SET settings = jsonb_set(settings, '{application_theme,mainColor}', '"#123456"') WHERE id_site = 1`,
    );
    try {
      expect((await get('/api/en/sites/settings')).json().application_theme.mainColor).toBe('#123456');
    } finally {
      await t.db.query(
        `UPDATE site_settings SET settings = jsonb_set(settings, '{application_theme,mainColor}', '"#1d4ed8"') WHERE id_site = 1`,
      );
    }
  });

  it('may be cached for a minute', async () => {
    expect((await get('/api/en/sites/categories/1/orders/work_types')).headers['cache-control']).toBe('public, max-age=60');
  });
});

describe('settings behind a proxy or with a separate chat process', () => {
  it('uses https and wss when a trusted proxy says the request came over TLS', async () => {
    const proxied = await buildTestApp({ env: { TRUST_PROXY: '1' } });
    try {
      const res = await proxied.app.inject({
        method: 'GET',
        url: '/api/en/sites/settings',
        headers: { host: 'internal:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'writing.example' },
      });
      expect(res.json()).toMatchObject({
        messages_url: 'https://writing.example/chat',
        baseWebSocketGatewayURL: 'wss://writing.example/chat',
      });
    } finally {
      await proxied.close();
    }
  });

  it('builds the chat URLs from PUBLIC_ORIGIN whatever Host or X-Forwarded-Host a request forges, and lets shared caches keep them (ADR 0068)', async () => {
    for (const [origin, ws] of [
      ['https://writing.example', 'wss://writing.example/chat'],
      ['http://localhost:3100', 'ws://localhost:3100/chat'],
    ] as const) {
      const configured = await buildTestApp({ env: { PUBLIC_ORIGIN: `${origin}/`, TRUST_PROXY: '1' } });
      try {
        for (const headers of [
          { host: 'evil.example' },
          { host: 'internal:3000', 'x-forwarded-proto': 'http', 'x-forwarded-host': 'evil.example:666' },
        ]) {
          const res = await configured.app.inject({ method: 'GET', url: '/api/en/sites/settings', headers });
          expect(res.json()).toMatchObject({
            messages_url: `${origin}/chat`,
            baseOrderMessengerURL: `${origin}/chat`,
            baseWebSocketGatewayURL: ws,
          });
          expect(res.headers['cache-control']).toBe('public, max-age=60');
        }
      } finally {
        await configured.close();
      }
    }
  });

  it('points every chat URL at CHAT_BASE_URL when it is set', async () => {
    const split = await buildTestApp({ env: { CHAT_BASE_URL: 'https://chat.writing.example/' } });
    try {
      const res = await split.app.inject({ method: 'GET', url: '/api/en/sites/settings' });
      expect(res.json()).toMatchObject({
        messages_url: 'https://chat.writing.example',
        baseOrderMessengerURL: 'https://chat.writing.example',
        baseWebSocketGatewayURL: 'wss://chat.writing.example',
      });
    } finally {
      await split.close();
    }
  });
});

describe('category lists', () => {
  it('offers all four work types for essays and writing and editing only for resumes (SPEC §1)', async () => {
    expect((await get('/api/en/sites/categories/1/orders/work_types')).json()).toEqual([
      { id: 1, name: 'Writing' },
      { id: 2, name: 'Editing & Proofreading' },
      { id: 3, name: 'Presentation' },
      { id: 4, name: 'Review' },
    ]);
    expect((await get('/api/en/sites/categories/3/orders/work_types')).json()).toEqual([
      { id: 1, name: 'Writing' },
      { id: 2, name: 'Editing & Proofreading' },
    ]);
  });

  it('lists the paper types SPEC §9 relies on: 1 and 17 for essays, 71 first for resumes', async () => {
    const essay = (await get('/api/en/sites/categories/1/orders/assignments')).json() as { id: number; name: string }[];
    expect(essay).toContainEqual({ id: 1, name: 'Essay (any type)' });
    expect(essay).toContainEqual({ id: 17, name: 'Presentation' });
    const resume = (await get('/api/en/sites/categories/3/orders/assignments')).json() as { id: number; name: string }[];
    expect(resume[0]).toEqual({ id: 71, name: 'Resume' });
  });

  it('adds the rows shared by every category to each category, ordered by position', async () => {
    for (const category of [1, 3, 4, 5]) {
      const formats = (await get(`/api/en/sites/categories/${category}/orders/paper_formats`)).json();
      expect(formats).toEqual([
        { id: 1, name: 'MLA' },
        { id: 2, name: 'APA' },
        { id: 3, name: 'Chicago/Turabian' },
        { id: 4, name: 'Harvard' },
        { id: 5, name: 'Other' },
      ]);
    }
    const subjects = (await get('/api/en/sites/categories/4/orders/subjects')).json() as unknown[];
    expect(subjects.length).toBeGreaterThanOrEqual(25);
  });

  it('answers from the database: a row an operator adds or renames shows at once', async () => {
    await t.db.query(
      `INSERT INTO catalogue_items (kind, site_category, id, name, position) VALUES ('subject', 5, 900, 'Search Engine Optimisation', 0)`,
    );
    await t.db.query(`UPDATE catalogue_items SET name = 'Copy Editing' WHERE kind = 'work_type' AND site_category = 5 AND id = 2`);
    try {
      const subjects = (await get('/api/en/sites/categories/5/orders/subjects')).json() as { id: number; name: string }[];
      expect(subjects[0]).toEqual({ id: 900, name: 'Search Engine Optimisation' });
      // A category's own row is not shown to another category.
      const essaySubjects = (await get('/api/en/sites/categories/1/orders/subjects')).json() as { id: number }[];
      expect(essaySubjects.map((s) => s.id)).not.toContain(900);
      expect((await get('/api/en/sites/categories/5/orders/work_types')).json()).toContainEqual({ id: 2, name: 'Copy Editing' });
    } finally {
      await t.db.query(`DELETE FROM catalogue_items WHERE kind = 'subject' AND id = 900`);
      await t.db.query(
        `UPDATE catalogue_items SET name = 'Editing & Proofreading' WHERE kind = 'work_type' AND site_category = 5 AND id = 2`,
      );
    }
  });

  it.each([
    ['2', 'a category the site does not offer'],
    ['6', 'a category outside 1 to 5'],
    ['0', 'the shared pseudo-category'],
    ['essay', 'a category that is not a number'],
  ])('answers 404 with a message for %s (%s)', async (category) => {
    for (const list of ['work_types', 'assignments', 'subjects', 'paper_formats', 'calcs']) {
      const res = await get(`/api/en/sites/categories/${category}/orders/${list}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: expect.any(String) });
      // Not the catalogues' public caching: the API's default, no-store (ADR 0033).
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('serves a category once the operator adds it to siteCategories', async () => {
    await t.db.query(`UPDATE site_settings SET settings = jsonb_set(settings, '{siteCategories}', '[1,2,3,4,5]') WHERE id_site = 1`);
    try {
      expect((await get('/api/en/sites/categories/2/orders/work_types')).statusCode).toBe(200);
    } finally {
      await t.db.query(`UPDATE site_settings SET settings = jsonb_set(settings, '{siteCategories}', '[1,3,4,5]') WHERE id_site = 1`);
    }
  });
});

describe('GET …/orders/calcs', () => {
  it('serves the price tables with money as amounts of 2 decimals', async () => {
    const res = await get('/api/en/sites/categories/1/orders/calcs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const calcs = calcsSchema.parse(res.json());
    expect(calcs.siteCategory).toBe(1);
    // 4 work types × 5 academic levels × 9 urgencies
    expect(calcs.rates).toHaveLength(180);
    for (const rate of calcs.rates) expect(isTwoDecimalAmount(rate.pricePerPage)).toBe(true);
    expect(calcs.rates).toContainEqual({ idWorkType: 1, idLevel: 2, urgency: 240, pricePerPage: 12 });
    expect(calcs.extras).toContainEqual({ key: 'originalityReport', kind: 'flat', value: 9.99 });
    expect(calcs.extras).toContainEqual({ key: 'premiumWriter', kind: 'percent', value: 25 });
    expect(calcs.maxAmountDiscount).toBe(100);
  });

  it('answers from the database: a rate changed there is the rate served', async () => {
    await t.db.query(
      'UPDATE price_rates SET cents_per_page = 1234 WHERE site_category = 4 AND work_type_id = 1 AND level_id = 1 AND urgency_hours = 240',
    );
    const calcs = calcsSchema.parse((await get('/api/en/sites/categories/4/orders/calcs')).json());
    expect(calcs.rates).toContainEqual({ idWorkType: 1, idLevel: 1, urgency: 240, pricePerPage: 12.34 });
  });
});

describe('GET /api/en/sites/{idSite}/orders/urgencies', () => {
  it('lists the urgencies longest first, 12 hours the shortest (SPEC §9)', async () => {
    const res = await get('/api/en/sites/1/orders/urgencies');
    expect(res.statusCode).toBe(200);
    const urgencies = res.json() as { id: number; hours: number; name: string }[];
    const hours = urgencies.map((u) => u.hours);
    expect(hours).toEqual([...hours].sort((a, b) => b - a));
    expect(Math.min(...hours)).toBe(12);
    expect(hours).toContain(240);
    expect(hours).toContain(120);
    // ADR 0011: options 3 and 6, disabled at levels 4 and 5, are the two shortest deadlines.
    expect(
      urgencies
        .filter((u) => u.id === 3 || u.id === 6)
        .map((u) => u.hours)
        .sort((a, b) => a - b),
    ).toEqual([12, 24]);
  });

  it('answers from the database', async () => {
    await t.db.query(`UPDATE urgencies SET name = 'Ten days' WHERE id_site = 1 AND id = 1`);
    expect((await get('/api/en/sites/1/orders/urgencies')).json()).toContainEqual({ id: 1, hours: 240, name: 'Ten days' });
  });

  it('answers 404 for a site that does not exist', async () => {
    for (const site of ['2', 'abc']) {
      const res = await get(`/api/en/sites/${site}/orders/urgencies`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
  });
});

describe('lists shared by every category', () => {
  it.each([
    [
      'resume_services',
      [
        { id: 1, name: 'Resume Writing' },
        { id: 2, name: 'Resume Editing' },
        { id: 3, name: 'Cover Letter' },
        { id: 4, name: 'LinkedIn Profile Makeover' },
      ],
    ],
    [
      'academic_levels',
      [
        { id: 1, name: 'High School' },
        { id: 2, name: 'College' },
        { id: 3, name: 'University' },
        { id: 4, name: "Master's" },
        { id: 5, name: 'PhD' },
      ],
    ],
    [
      'resume_levels',
      [
        { id: 1, name: 'Entry Level' },
        { id: 2, name: 'Mid Level' },
        { id: 3, name: 'Senior Level' },
        { id: 4, name: 'Executive' },
      ],
    ],
    [
      'thesis_levels',
      [
        { id: 1, name: "Bachelor's" },
        { id: 2, name: "Master's" },
        { id: 3, name: 'PhD' },
      ],
    ],
  ])('GET /api/en/orders/%s lists the seeded entries without a token', async (list, expected) => {
    const res = await get(`/api/en/orders/${list}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.json()).toEqual(expected);
  });

  it('answers from the database', async () => {
    await t.db.query(`UPDATE catalogue_items SET name = 'Doctorate' WHERE kind = 'thesis_level' AND id = 3`);
    expect((await get('/api/en/orders/thesis_levels')).json()).toContainEqual({ id: 3, name: 'Doctorate' });
  });
});
