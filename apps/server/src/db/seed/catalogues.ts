/**
 * The catalogues of SPEC §7 as seeded on first start (ADR 0011). Operators edit the rows afterwards;
 * the seed never overwrites them. site_category 0 means "every category".
 */
import type { CatalogueKind } from '@app/domain/catalogue';

export interface CatalogueRow {
  kind: CatalogueKind;
  siteCategory: number;
  id: number;
  name: string;
  position: number;
}

type Entry = readonly [id: number, name: string];

const rows = (kind: CatalogueKind, siteCategory: number, entries: readonly Entry[]): CatalogueRow[] =>
  entries.map(([id, name], index) => ({ kind, siteCategory, id, name, position: index + 1 }));

/** SPEC §1 work types: 1 Writing, 2 Editing & Proofreading, 3 Presentation, 4 Review. */
const ALL_WORK_TYPES: readonly Entry[] = [
  [1, 'Writing'],
  [2, 'Editing & Proofreading'],
  [3, 'Presentation'],
  [4, 'Review'],
];
const WRITING_AND_EDITING: readonly Entry[] = [
  [1, 'Writing'],
  [2, 'Editing & Proofreading'],
];

/** Work types each site category offers (a resume is written or edited, not presented or reviewed). */
export const WORK_TYPES_BY_CATEGORY: Readonly<Record<number, readonly Entry[]>> = {
  1: ALL_WORK_TYPES,
  2: ALL_WORK_TYPES,
  3: WRITING_AND_EDITING,
  4: ALL_WORK_TYPES,
  5: WRITING_AND_EDITING,
};

/** Paper types of the essay categories; SPEC §9: 1 is the default, 17 the presentation type. */
const ESSAY_PAPER_TYPES: readonly Entry[] = [
  [1, 'Essay (any type)'],
  [2, 'Admission Essay'],
  [3, 'Argumentative Essay'],
  [4, 'Annotated Bibliography'],
  [5, 'Article Review'],
  [6, 'Book/Movie Review'],
  [7, 'Case Study'],
  [8, 'Coursework'],
  [9, 'Creative Writing'],
  [10, 'Critical Thinking'],
  [11, 'Lab Report'],
  [12, 'Term Paper'],
  [13, 'Research Paper'],
  [14, 'Research Proposal'],
  [15, 'Speech'],
  [16, 'Reflective Essay'],
  [17, 'Presentation'],
  [18, 'Personal Statement'],
  [19, 'Scholarship Essay'],
  [20, 'Other'],
];

/** SPEC §9: 71 is the resume default paper type. */
const RESUME_PAPER_TYPES: readonly Entry[] = [
  [71, 'Resume'],
  [72, 'Cover Letter'],
  [73, 'CV'],
  [74, 'LinkedIn Profile'],
  [75, 'Federal Resume'],
  [76, 'Thank-You Letter'],
];

const THESIS_PAPER_TYPES: readonly Entry[] = [
  [1, 'Essay (any type)'],
  [17, 'Presentation'],
  [41, 'Thesis'],
  [42, 'Dissertation'],
  [43, 'Thesis Proposal'],
  [44, 'Dissertation Proposal'],
  [45, 'Literature Review'],
  [46, 'Methodology Chapter'],
  [47, 'Results Chapter'],
  [48, 'Discussion Chapter'],
  [49, 'Abstract'],
];

const CONTENT_PAPER_TYPES: readonly Entry[] = [
  [1, 'Essay (any type)'],
  [51, 'Blog Post'],
  [52, 'Article'],
  [53, 'Website Content'],
  [54, 'Product Description'],
  [55, 'Press Release'],
  [56, 'Newsletter'],
  [57, 'Social Media Post'],
  [58, 'White Paper'],
];

export const ASSIGNMENTS_BY_CATEGORY: Readonly<Record<number, readonly Entry[]>> = {
  1: ESSAY_PAPER_TYPES,
  2: ESSAY_PAPER_TYPES,
  3: RESUME_PAPER_TYPES,
  4: THESIS_PAPER_TYPES,
  5: CONTENT_PAPER_TYPES,
};

/** Shared by every category (site_category 0). */
const SUBJECTS: readonly Entry[] = [
  [1, 'English'],
  [2, 'Literature'],
  [3, 'History'],
  [4, 'Philosophy'],
  [5, 'Psychology'],
  [6, 'Sociology'],
  [7, 'Political Science'],
  [8, 'Law'],
  [9, 'Business'],
  [10, 'Management'],
  [11, 'Marketing'],
  [12, 'Economics'],
  [13, 'Finance'],
  [14, 'Accounting'],
  [15, 'Education'],
  [16, 'Nursing'],
  [17, 'Medicine'],
  [18, 'Biology'],
  [19, 'Chemistry'],
  [20, 'Physics'],
  [21, 'Mathematics'],
  [22, 'Computer Science'],
  [23, 'Engineering'],
  [24, 'Environmental Science'],
  [25, 'Art'],
  [26, 'Music'],
  [27, 'Religion'],
  [28, 'Other'],
];

const PAPER_FORMATS: readonly Entry[] = [
  [1, 'MLA'],
  [2, 'APA'],
  [3, 'Chicago/Turabian'],
  [4, 'Harvard'],
  [5, 'Other'],
];

const RESUME_SERVICES: readonly Entry[] = [
  [1, 'Resume Writing'],
  [2, 'Resume Editing'],
  [3, 'Cover Letter'],
  [4, 'LinkedIn Profile Makeover'],
];

/** SPEC §4 "Level 4 or 5 disables urgency options 3 and 6": 4 and 5 are Master's and PhD. */
export const ACADEMIC_LEVELS: readonly Entry[] = [
  [1, 'High School'],
  [2, 'College'],
  [3, 'University'],
  [4, "Master's"],
  [5, 'PhD'],
];

export const RESUME_LEVELS: readonly Entry[] = [
  [1, 'Entry Level'],
  [2, 'Mid Level'],
  [3, 'Senior Level'],
  [4, 'Executive'],
];

export const THESIS_LEVELS: readonly Entry[] = [
  [1, "Bachelor's"],
  [2, "Master's"],
  [3, 'PhD'],
];

export const catalogueRows = (): CatalogueRow[] => [
  ...Object.entries(WORK_TYPES_BY_CATEGORY).flatMap(([category, entries]) => rows('work_type', Number(category), entries)),
  ...Object.entries(ASSIGNMENTS_BY_CATEGORY).flatMap(([category, entries]) => rows('assignment', Number(category), entries)),
  ...rows('subject', 0, SUBJECTS),
  ...rows('paper_format', 0, PAPER_FORMATS),
  ...rows('resume_service', 0, RESUME_SERVICES),
  ...rows('academic_level', 0, ACADEMIC_LEVELS),
  ...rows('resume_level', 0, RESUME_LEVELS),
  ...rows('thesis_level', 0, THESIS_LEVELS),
];

export interface UrgencyRow {
  id: number;
  hours: number;
  name: string;
}

/**
 * Urgencies of site 1 (ADR 0011). Ids are stable keys, not an order: SPEC §4 disables "urgency options
 * 3 and 6" for levels 4 and 5, so 3 and 6 are the two shortest deadlines (24 and 12 hours; SPEC §9
 * minimum 12). SPEC §9 defaults: 240 hours, resume 120. The API lists them longest first.
 */
export const URGENCIES: readonly UrgencyRow[] = [
  { id: 8, hours: 336, name: '14 days' },
  { id: 1, hours: 240, name: '10 days' },
  { id: 2, hours: 168, name: '7 days' },
  { id: 4, hours: 120, name: '5 days' },
  { id: 9, hours: 96, name: '4 days' },
  { id: 5, hours: 72, name: '3 days' },
  { id: 7, hours: 48, name: '2 days' },
  { id: 3, hours: 24, name: '24 hours' },
  { id: 6, hours: 12, name: '12 hours' },
];
