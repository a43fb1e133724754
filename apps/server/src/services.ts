import type { AppContext } from './context';
import { eraseCustomerAuditText } from './modules/audit';
import { acceptancesReport, authServiceFor, createTwoFactor, eraseAccount } from './modules/auth';
import { createCatalogue, createFirstAnswers } from './modules/catalogue';
import { createChatBus, createWriterChatSend, eraseCustomerMessages, messagesReport, sessionsEndedOn } from './modules/chat';
import { consentHistoryReport, eraseConsentHistory, type PersonalData } from './modules/customers';
import { createAfterPaymentService, eraseCustomerTimelineNotes } from './modules/delivery';
import { createDiscounts, eraseCustomerCodes } from './modules/discounts';
import { disputesReport, eraseCustomerDisputes } from './modules/disputes';
import { createFiles, eraseCustomerFiles, filesReport, type FileStorage } from './modules/files';
import { eraseCustomerReferrals, pointsLedgerReport, referralsReport } from './modules/loyalty';
import { eraseMailTo } from './modules/mail';
import { eraseNotifications, notificationPreferencesReport, notificationsReport } from './modules/notifications';
import { eraseCustomerOrders, ordersReport } from './modules/orders';
import {
  createManualPayments,
  createMoneySupport,
  createPaymentAttention,
  eraseCustomerPayments,
  orderEditMoney,
  usablePaymentSystems,
} from './modules/payments';
import { createPricing } from './modules/pricing';
import { createReviews, eraseCustomerReviews } from './modules/reviews';
import { createRevisions, eraseCustomerRevisions, revisionsReport } from './modules/revisions';
import { receiptsReport, transactionsReport } from './modules/transactions';

/**
 * What the app holds of a customer, each part from the module that owns its tables (ADR 0052, 0077): the
 * account deletion runs every erase step in its one transaction, and the personal-data report reads its
 * sections in this order (the report's JSON keys). A module with a new table of customer data adds its
 * step and, when the customer should see it, its section here.
 */
export const PERSONAL_DATA: PersonalData = {
  erase: [
    eraseAccount,
    eraseConsentHistory,
    eraseCustomerOrders,
    eraseMailTo,
    eraseCustomerRevisions,
    eraseCustomerReviews,
    eraseCustomerFiles,
    eraseCustomerPayments,
    eraseCustomerMessages,
    eraseCustomerReferrals,
    eraseCustomerCodes,
    eraseCustomerTimelineNotes,
    eraseCustomerDisputes,
    eraseCustomerAuditText,
    eraseNotifications,
  ],
  report: {
    orders: ordersReport,
    files: filesReport,
    revisions: revisionsReport,
    transactions: transactionsReport,
    consentHistory: consentHistoryReport,
    acceptances: acceptancesReport,
    receipts: receiptsReport,
    messages: messagesReport,
    referrals: referralsReport,
    pointsLedger: pointsLedgerReport,
    disputes: disputesReport,
    notificationPreferences: notificationPreferencesReport,
    notifications: notificationsReport,
  },
};

/**
 * The composition root (ADR 0054): every service another module uses is built here, once, from the
 * app's infrastructure (`ctx`), and app.ts hands each module the instances it needs. A module never
 * builds another module's service itself, so one price-table cache, one files service, one catalogue
 * service serve the whole app. A module's own service, used by no one else, is still built by its plugin.
 */
export const buildServices = (ctx: AppContext, { fileStorage }: { fileStorage: FileStorage }) => {
  const files = createFiles(ctx, fileStorage);
  const catalogue = createCatalogue(ctx, { usablePayments: usablePaymentSystems(ctx.config) });
  const priceTables = createPricing({ catalogue: catalogue.reader, clock: ctx.clock });
  // The chat's fan-out, built even where no chat is served: ended sessions go through it (ADR 0069).
  const chatBus = createChatBus(ctx);
  const reviews = createReviews(ctx);
  // ADR 0090: staff two-factor sign-in: the sign-in asks for the code, the admin routes require it on.
  const twoFactor = createTwoFactor({ db: ctx.db, clock: ctx.clock, key: ctx.twoFactorKey });
  return {
    /** Every end of sessions is announced on the chat bus, so each instance closes their sockets (ADR 0069). */
    auth: authServiceFor(ctx, { onSessionsEnded: sessionsEndedOn(chatBus), twoFactor }),
    twoFactor,
    chatBus,
    catalogue,
    priceTables,
    discounts: createDiscounts(ctx),
    files,
    reviews,
    /** Delivery, acceptance, the review clock and proposed deadlines (ADR 0084); the orders and staff views read it. */
    afterPayment: createAfterPaymentService(ctx, { reviews, writerChat: createWriterChatSend(ctx, { files, bus: chatBus }) }),
    revisions: createRevisions(ctx, { files }),
    /** Support's money views and the order page's money flags (payments module, ADR 0035). */
    money: createMoneySupport({ db: ctx.db, clock: ctx.clock, log: ctx.log }),
    /** Payments support records by hand, settled like a provider's (ADR 0071). */
    manualPayments: createManualPayments({ db: ctx.db, clock: ctx.clock, log: ctx.log }),
    /** Stale payment attempts flagged for support (ADR 0058). */
    attention: createPaymentAttention({ db: ctx.db, clock: ctx.clock, log: ctx.log }),
    /** What an order edit does to its payments, inside the edit's transaction (ADR 0034). */
    orderEditMoney,
    /** Every module's part of an account deletion and of the personal-data report (customers module). */
    personalData: PERSONAL_DATA,
    /** ADR 0086: what pricing an upgrade reads: the one price-table cache and the site's urgencies (payments module). */
    upgradePricing: {
      forCategory: (category: string | number) => priceTables.forCategory(category),
      urgencyHours: async () => (await catalogue.reader.siteUrgencies()).map((u) => u.hours),
    },
    /** The first paint's inlined API answers (ADR 0040), over the same catalogue service. */
    firstAnswers: createFirstAnswers({ catalogue, clock: ctx.clock }),
  };
};
