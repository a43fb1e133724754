// The zod-free half of the revision context, for the web app's eager chunks (ADR 0020).
/** SPEC §4 "Revision status ids". */
export const REVISION_STATUS = {
  requested: 1,
  inProgress: 2,
  disputed: 3,
  rejected: 4,
  completed: 5,
  canceled: 6,
  closed: 7,
  failed: 8,
  graded: 9,
  expired: 10,
  undelivered: 11,
  verifying: 12,
} as const;
export type RevisionStatusId = (typeof REVISION_STATUS)[keyof typeof REVISION_STATUS];
export const REVISION_STATUS_IDS = Object.values(REVISION_STATUS) as readonly RevisionStatusId[];

export const REVISION_STATUS_NAME: Record<RevisionStatusId, string> = {
  1: 'Requested',
  2: 'In progress',
  3: 'Disputed',
  4: 'Rejected',
  5: 'Completed',
  6: 'Canceled',
  7: 'Closed',
  8: 'Failed',
  9: 'Graded',
  10: 'Expired',
  11: 'Undelivered',
  12: 'Verifying',
};

export const isRevisionStatusId = (id: number): id is RevisionStatusId => Object.hasOwn(REVISION_STATUS_NAME, id);

/** CONTRACT "Revisions": a revision in one of these is active; an order has at most one active revision. */
export const ACTIVE_REVISION_STATUSES: readonly RevisionStatusId[] = [1, 2, 3, 12];
export const isActiveRevisionStatus = (id: number): boolean => (ACTIVE_REVISION_STATUSES as readonly number[]).includes(id);

/**
 * The allowed moves (ADR 0044). The happy path is requested → in progress → verifying → completed;
 * the others branch off where they belong. Rejected, canceled, closed and expired end a revision.
 */
export const REVISION_TRANSITIONS: Record<RevisionStatusId, readonly RevisionStatusId[]> = {
  1: [2, 4, 6, 10],
  2: [12, 3, 6, 8, 11],
  3: [2, 4, 5, 7],
  4: [],
  5: [9, 3, 7],
  6: [],
  7: [],
  8: [7],
  9: [7],
  10: [],
  11: [2, 8, 7],
  12: [5, 2, 3],
};

/** True when a revision in `from` may move to `to` (the same status is not a move). */
export const canMoveRevision = (from: number, to: number): boolean =>
  isRevisionStatusId(from) && isRevisionStatusId(to) && REVISION_TRANSITIONS[from].includes(to);

/** The statuses an assigned writer may set (ADR 0044): start, hand in for verifying. Support may make every allowed move. */
export const WRITER_REVISION_STATUSES: readonly RevisionStatusId[] = [2, 12];

/** SPEC §9 "Revision level time required": the ETA is the request time plus these hours. */
export const REVISION_LEVELS = [
  { id: 1, name: 'Minor changes', hours: 12 },
  { id: 2, name: 'Moderate changes', hours: 16 },
  { id: 3, name: 'Major changes', hours: 20 },
  { id: 4, name: 'Extensive changes', hours: 24 },
] as const;
export type RevisionLevelId = (typeof REVISION_LEVELS)[number]['id'];
export const revisionLevel = (id: number) => REVISION_LEVELS.find((l) => l.id === id);

/** The categories a customer picks in "Nature of revision" (SPEC leaves their names open: ADR 0044). */
export const REVISION_CATEGORIES = [
  { id: 1, name: 'Instructions not followed' },
  { id: 2, name: 'Content and arguments' },
  { id: 3, name: 'Structure and formatting' },
  { id: 4, name: 'Grammar and style' },
  { id: 5, name: 'Sources and citations' },
  { id: 6, name: 'Other' },
] as const;
export const revisionCategory = (id: number) => REVISION_CATEGORIES.find((c) => c.id === id);

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** SPEC §9: the ETA is the request time plus the level's hours; null for an unknown level. */
export const revisionEta = (requestedAt: Date, levelId: number): Date | null => {
  const level = revisionLevel(levelId);
  return level ? new Date(requestedAt.getTime() + level.hours * HOUR_MS) : null;
};

/** SPEC §9 "Revision period": 14 days for papers under 30 pages, 30 days for longer ones. */
export const REVISION_PERIOD_DAYS = { short: 14, long: 30 } as const;
export const REVISION_LONG_PAPER_PAGES = 30;
export const revisionPeriodDays = (pages: number): number =>
  pages < REVISION_LONG_PAPER_PAGES ? REVISION_PERIOD_DAYS.short : REVISION_PERIOD_DAYS.long;

export interface RevisionWindow {
  /** when free revisions end; null while the order is not completed */
  until: Date | null;
  open: boolean;
  /** whole days left, rounded up (0 once closed) */
  daysLeft: number;
}

/** CONTRACT "Revisions": the window runs from the order's completion. */
export const revisionWindow = ({ completedAt, pages, now }: { completedAt: Date | null; pages: number; now: Date }): RevisionWindow => {
  if (!completedAt) return { until: null, open: false, daysLeft: 0 };
  const until = new Date(completedAt.getTime() + revisionPeriodDays(pages) * DAY_MS);
  const left = until.getTime() - now.getTime();
  return { until, open: left > 0, daysLeft: left > 0 ? Math.ceil(left / DAY_MS) : 0 };
};

/** SPEC §8 and the refusals of the revision API (ADR 0044). */
export const REVISION_MESSAGE = {
  created: 'Revision has been successfully created',
  activeRevision: 'You have one active revision',
  notCompleted: 'A revision can be requested once the order is completed',
  windowClosed: 'The free revision period of this order has ended',
  categoryRequired: 'Please choose at least one revision category',
  unknownCategory: 'Unknown revision category',
  levelRequired: 'Please choose a revision level',
  unknownLevel: 'Unknown revision level',
  descriptionRequired: 'Please describe what needs to be changed',
  descriptionTooLong: 'The description must be at most 5000 characters',
  policyRequired: 'Please accept the Revision Policy to continue',
  notActive: 'Files can be added only while the revision is active',
  moveNotAllowed: 'This revision cannot move to that status',
  windowOpen: (until: string, daysLeft: number) => `Free revisions until ${until} (${daysLeft} ${daysLeft === 1 ? 'day' : 'days'} left)`,
  windowEnded: (until: string) => `Free revisions ended on ${until}`,
} as const;

export const REVISION_DESCRIPTION_MAX_LENGTH = 5000;

/** SPEC §4 "Revision wizard" steps. */
export const REVISION_WIZARD_STEPS = ['Revision Policy', 'Nature of revision', 'Time-frame'] as const;

/** SPEC §4: step 2 only after the policy is accepted. */
export const canOpenNatureStep = (s: { policyAccepted: boolean }): boolean => s.policyAccepted;
/** SPEC §4: step 3 only with at least one category and a description. */
export const canOpenTimeFrameStep = (s: { policyAccepted: boolean; categories: readonly number[]; description: string }): boolean =>
  s.policyAccepted && s.categories.length > 0 && s.description.trim().length > 0;
/** SPEC §4: Finish only with a level, and not while the request is in flight. */
export const canFinishRevision = (s: {
  policyAccepted: boolean;
  categories: readonly number[];
  description: string;
  level: number | null;
  submitting: boolean;
}): boolean => canOpenTimeFrameStep(s) && s.level !== null && revisionLevel(s.level) !== undefined && !s.submitting;

/** The problems of a create request, by field (`category`, `describeProblem`, `revisionLevel`), in SPEC's words. */
export const revisionRequestProblems = (body: {
  category: readonly number[];
  describeProblem: string;
  revisionLevel: number | null;
}): Record<string, string[]> => {
  const errors: Record<string, string[]> = {};
  if (body.category.length === 0) errors.category = [REVISION_MESSAGE.categoryRequired];
  else if (body.category.some((id) => !revisionCategory(id))) errors.category = [REVISION_MESSAGE.unknownCategory];
  const description = body.describeProblem.trim();
  if (description.length === 0) errors.describeProblem = [REVISION_MESSAGE.descriptionRequired];
  else if (description.length > REVISION_DESCRIPTION_MAX_LENGTH) errors.describeProblem = [REVISION_MESSAGE.descriptionTooLong];
  if (body.revisionLevel === null) errors.revisionLevel = [REVISION_MESSAGE.levelRequired];
  else if (!revisionLevel(body.revisionLevel)) errors.revisionLevel = [REVISION_MESSAGE.unknownLevel];
  return errors;
};

/** Why a customer may not request a revision now; null when they may (CONTRACT "Revisions"). */
export const revisionRequestRefusal = (s: {
  orderStatus: number;
  window: RevisionWindow;
  hasActiveRevision: boolean;
}): { code: 'notCompleted' | 'windowClosed' | 'activeRevision'; message: string } | null => {
  if (s.orderStatus !== 5) return { code: 'notCompleted', message: REVISION_MESSAGE.notCompleted };
  if (!s.window.open) return { code: 'windowClosed', message: REVISION_MESSAGE.windowClosed };
  if (s.hasActiveRevision) return { code: 'activeRevision', message: REVISION_MESSAGE.activeRevision };
  return null;
};
