// The order form's values: the rules (index.ts) and the query-string mapping (query.ts) both use them.
export type Spacing = 1 | 2;

export interface OrderFormValues {
  workType: number;
  level: number;
  paperFormat: number;
  paperType: number;
  resumeService: number | null;
  subject: number | null;
  pages: number;
  sources: number;
  spacing: Spacing;
  title: string;
  details: string;
  credentials: string;
  /** hours */
  urgency: number;
  premiumWriter: boolean;
  preferredWriters: number[];
  anotherWriter: boolean;
  extraQualityCheck: boolean;
  originalityReport: boolean;
  onePageSummary: boolean;
  discountCode: string;
}
