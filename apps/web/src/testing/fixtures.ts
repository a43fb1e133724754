import type { Customer, Session } from '@app/domain/customer';
import type { SiteSettings } from '@app/domain/settings';
import type { OrderDetail } from '@app/domain/order';
import type { OrderListItem } from '@app/domain/order-list';

export const settingsFixture: SiteSettings = {
  siteCategories: [1, 3, 4, 5],
  languageCode: 'en',
  idSite: 1,
  stepEnabled: true,
  application_theme: { mainColor: '#1d4ed8' },
  payments_rules: { '1': { default: ['paycore'] } },
  site_domain: 'localhost',
  email: 'support@example.com',
  multipayment: true,
  messages_url: 'http://localhost:3000/chat',
  baseOrderMessengerURL: 'http://localhost:3000/chat',
  baseWebSocketGatewayURL: 'ws://localhost:3000/chat',
  disableOrderMessenger: false,
  enableExtraQualityCheck: true,
  enableOnePageSummary: true,
  codeCountry: 'us',
};

export const customerFixture = (overrides: Partial<Customer> = {}): Customer => ({
  id: 7,
  firstName: 'Dana',
  lastName: 'Demo',
  email: 'demo@example.com',
  phone: '15550100',
  country: 'us',
  state: '',
  city: '',
  address: '',
  zip: '',
  ipClient: '127.0.0.1',
  status: { id: 1, name: 'Active' },
  role: 1,
  enabledNewsletters: false,
  enabledNightCalls: true,
  billing: { name: '', company: '', taxId: '', address: '' },
  enabledFacebookMessenger: false,
  facebookData: { fbMessengerAppId: null, fbPageId: null, ref: 'profile', userRef: 'customer-7', isChecked: false },
  enabledCookiesUsage: true,
  enabledPersonalData: true,
  enabledTechnicalData: true,
  enabledLocationUsage: false,
  enabledInformationSharing: false,
  enabledEmailSubscription: false,
  emailConfirmed: true,
  signInByLinkOnly: false,
  ...overrides,
});

export const signIn = (accessToken = 'access-1', refreshToken = 'refresh-1'): void => {
  window.localStorage.setItem('accessToken', accessToken);
  window.localStorage.setItem('refreshToken', refreshToken);
};

/** One dashboard card as the list endpoint answers it (CONTRACT "Order list query"). */
export const orderListItemFixture = (overrides: Partial<OrderListItem> = {}): OrderListItem => ({
  id: 101,
  uid: 'uid-0000000000000101',
  title: 'Symbolism in The Great Gatsby',
  workType: { id: 1, name: 'Writing' },
  siteCategory: 1,
  status: 3,
  orderStatus: { id: 3, name: 'In progress' },
  deadline: '2030-01-10T12:00:00.000Z',
  dateCreated: '2029-12-30T12:00:00.000Z',
  finalPrice: 84.5,
  hidden: 'no',
  pending: false,
  pages: 3,
  unread: 0,
  reviewBy: null,
  reviewed: false,
  activeRevision: false,
  completedAt: null,
  ...overrides,
});

/** GET /api/en/orders/{id} (domain orderDetailSchema). */
export const orderDetailFixture = (overrides: Partial<OrderDetail> = {}): OrderDetail => ({
  id: 42,
  uid: 'uid-00000000000000042',
  title: 'Microplastics in Freshwater Ecosystems',
  siteCategory: 1,
  workType: { id: 1, name: 'Writing' },
  status: 1,
  orderStatus: { id: 1, name: 'Unpaid' },
  finalPrice: 90,
  price: {
    basicPrice: 80,
    finalPrice: 90,
    pricePremiumWriter: 15,
    pricePreferedWriter: 0,
    priceExtraQualityCheck: 0,
    priceQuality: 5,
    priceOnePageSummary: 0,
    priceDiscount: 10,
  },
  discount: { code: 'WELCOME10', amount: 10 },
  deadline: '2030-01-10T12:00:00.000Z',
  dateCreated: '2029-12-30T12:00:00.000Z',
  hidden: 'no',
  activeRevision: null,
  pending: false,
  fileForDownload: null,
  feedback: null,
  features: { premiumWriter: 2, extraQualityCheck: 1, onePageSummary: 1, originalityReport: 2 },
  preferredWritersList: [],
  preferredWriterAnother: false,
  idWriter: null,
  description: 'Compare three sources of microplastics.',
  credentials: '',
  pages: 4,
  sources: 5,
  urgency: 240,
  paragraphSpacing: 2,
  subject: { id: 3, name: 'Biology' },
  assignment: { id: 1, name: 'Essay' },
  resumeService: null,
  paperFormat: { id: 1, name: 'APA' },
  academicLevel: { id: 2, name: 'Undergraduate' },
  resumeLevel: null,
  thesisLevel: null,
  statusHistory: [{ status: 1, date: '2029-12-30T12:00:00.000Z' }],
  delivery: null,
  extensionRequest: null,
  events: [],
  ...overrides,
});

/** The signed-in devices (ADR 0053): this one and a phone. */
export const sessionsFixture: Session[] = [
  {
    id: 'family-this',
    device: 'Chrome on Windows',
    ip: '203.0.113.5',
    signedInAt: '2026-11-20T09:00:00.000Z',
    lastSeenAt: '2026-11-23T09:00:00.000Z',
    current: true,
  },
  {
    id: 'family-phone',
    device: 'Safari on iOS',
    ip: '198.51.100.7',
    signedInAt: '2026-11-19T18:00:00.000Z',
    lastSeenAt: '2026-11-22T20:30:00.000Z',
    current: false,
  },
];
