import {
  centsToAmount,
  offeredPaymentsRules,
  priceExtraSchema,
  SITE_CATEGORY_IDS,
  siteSettingsSchema,
  type Calcs,
  type CatalogueItem,
  type PaymentSystem,
  type SiteSettings,
  type Urgency,
} from '@app/domain';
import type { z } from 'zod';
import type { CatalogueKind } from '@app/domain/catalogue';
import type { CatalogueRepo } from './catalogue.repo';
import { notFound } from '../../lib/errors';

/** What site_settings stores: everything but the row key and the chat URLs derived per request. */
const storedSettingsSchema = siteSettingsSchema.omit({
  idSite: true,
  messages_url: true,
  baseOrderMessengerURL: true,
  baseWebSocketGatewayURL: true,
});

const CATEGORY_NOT_FOUND = 'Site category not found';
const SITE_NOT_FOUND = 'Site not found';

/** Where the request came from (protocol and Host honour TRUST_PROXY). */
export interface RequestOrigin {
  protocol: string;
  host: string;
}

const toWebSocketUrl = (httpUrl: string): string => httpUrl.replace(/^http(s?):\/\//i, 'ws$1://');

export const createCatalogueService = ({
  repo,
  chatBaseUrl,
  publicOrigin,
  usablePayments,
}: {
  repo: CatalogueRepo;
  chatBaseUrl: string | undefined;
  /** PUBLIC_ORIGIN (required in production): the chat lives at {it}/chat unless CHAT_BASE_URL says otherwise. */
  publicOrigin: string | undefined;
  /** ADR 0036: the providers the deployment offers (payments module); unset: every one the rules name. */
  usablePayments?: readonly PaymentSystem[];
}) => {
  const loadSite = async (): Promise<{ idSite: number; settings: z.infer<typeof storedSettingsSchema> }> => {
    const site = await repo.findSite();
    if (!site) throw notFound(SITE_NOT_FOUND);
    // An operator edits this JSON by hand: a broken document is a server fault, reported as a 500.
    return { idSite: site.idSite, settings: storedSettingsSchema.parse(site.settings) };
  };

  /** SPEC §1 categories 1 to 5, and only those the site offers (settings.siteCategories). */
  const siteCategory = async (raw: string): Promise<number> => {
    const category = Number(raw);
    const known = (SITE_CATEGORY_IDS as readonly number[]).includes(category);
    if (!known || !(await loadSite()).settings.siteCategories.includes(category)) {
      throw notFound(CATEGORY_NOT_FOUND);
    }
    return category;
  };

  return {
    /**
     * ADR 0068: true when the settings' chat addresses are built from the request (neither CHAT_BASE_URL
     * nor PUBLIC_ORIGIN set: development and tests only, production requires PUBLIC_ORIGIN). Such an
     * answer is the asker's own and no shared cache may keep it.
     */
    settingsFollowRequest: chatBaseUrl === undefined && publicOrigin === undefined,
    /**
     * SPEC §3 "Site settings". CONTRACT "Serving": the chat lives at {PUBLIC_ORIGIN}/chat unless
     * CHAT_BASE_URL names another process; the socket URL is the same base with a ws(s) scheme. Never
     * from a Host header when PUBLIC_ORIGIN is set (ADR 0068): the answer is `Cache-Control: public`.
     */
    settings: async ({ origin }: { origin: RequestOrigin }): Promise<SiteSettings> => {
      const { idSite, settings } = await loadSite();
      const chatBase = chatBaseUrl ?? `${publicOrigin ?? `${origin.protocol}://${origin.host}`}/chat`;
      return {
        ...settings,
        // ADR 0036: a provider the deployment cannot use (no credentials in production) is never offered.
        payments_rules: usablePayments ? offeredPaymentsRules(settings.payments_rules, usablePayments) : settings.payments_rules,
        idSite,
        messages_url: chatBase,
        baseOrderMessengerURL: chatBase,
        baseWebSocketGatewayURL: toWebSocketUrl(chatBase),
      };
    },

    /** Lists of one category (work types, assignments, subjects, paper formats). */
    categoryList: async ({ category, kind }: { category: string; kind: CatalogueKind }): Promise<CatalogueItem[]> =>
      repo.listItems(kind, await siteCategory(category)),

    /** Lists shared by every category (resume services, the three level lists). */
    list: async ({ kind }: { kind: CatalogueKind }): Promise<CatalogueItem[]> => repo.listItems(kind, 0),

    urgencies: async ({ idSite }: { idSite: string }): Promise<Urgency[]> => {
      const id = Number(idSite);
      if (!Number.isSafeInteger(id) || !(await repo.siteExists(id))) throw notFound(SITE_NOT_FOUND);
      return repo.listUrgencies(id);
    },

    /** CONTRACT: the price tables, integer cents inside, amounts with 2 decimals on the wire. */
    calcs: async ({ category }: { category: string }): Promise<Calcs> => {
      const id = await siteCategory(category);
      const tables = await repo.priceTables(id);
      return {
        siteCategory: id,
        currency: 'USD',
        rates: tables.rates.map((r) => ({
          idWorkType: r.workTypeId,
          idLevel: r.levelId,
          urgency: r.urgencyHours,
          pricePerPage: centsToAmount(r.centsPerPage),
        })),
        extras: tables.extras.map((e) => {
          const extra = priceExtraSchema.parse(e);
          return { ...extra, value: extra.kind === 'flat' ? centsToAmount(extra.value) : extra.value };
        }),
        maxAmountDiscount: centsToAmount(tables.maxAmountDiscountCents),
      };
    },
  };
};
export type CatalogueService = ReturnType<typeof createCatalogueService>;
