// The zod-free half of the catalogue context (ADR 0020).
/** The lists of catalogue_items (migration 0001). */
export type CatalogueKind =
  'work_type' | 'assignment' | 'subject' | 'paper_format' | 'resume_service' | 'academic_level' | 'resume_level' | 'thesis_level';

/** SPEC §9 "Default urgency": 240 hours; resume 120. */
export const DEFAULT_URGENCY_HOURS = 240;
export const RESUME_DEFAULT_URGENCY_HOURS = 120;
/** SPEC §9 "Urgency: minimum 12". */
export const URGENCY_MIN_HOURS = 12;
/**
 * SPEC §4 "Level 4 or 5 disables urgency options 3 and 6". Urgency ids are stable keys, not an order
 * (ADR 0011): the seed gives id 3 to 24 hours and id 6 to 12 hours, the two shortest deadlines, which
 * Master's and PhD work cannot be written in.
 */
export const HIGH_ACADEMIC_LEVEL_IDS: readonly number[] = [4, 5];
export const URGENCY_IDS_DISABLED_AT_HIGH_LEVELS: readonly number[] = [3, 6];
