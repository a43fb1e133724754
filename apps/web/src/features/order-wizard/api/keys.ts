/** Query keys of the order wizard (one factory per feature, DESIGN "Layout"). */
export const wizardKeys = {
  all: ['order-wizard'] as const,
  categoryList: (category: number, list: string) => [...wizardKeys.all, 'category', category, list] as const,
  sharedList: (list: string) => [...wizardKeys.all, 'list', list] as const,
  urgencies: (idSite: number) => [...wizardKeys.all, 'urgencies', idSite] as const,
  preferredWriters: () => [...wizardKeys.all, 'preferred-writers'] as const,
  /** `PUT …/calcs` answers, keyed by the body asked about (ADR 0027) */
  priceCalc: (category: number, body: unknown) => [...wizardKeys.all, 'price-calc', category, body] as const,
};
