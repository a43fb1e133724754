import { describe, expect, it } from 'vitest';
import { calendarFile } from '../calendar/index';
import {
  ACTIVE_REVISION_STATUSES,
  canFinishRevision,
  canMoveRevision,
  canOpenNatureStep,
  canOpenTimeFrameStep,
  REVISION_CATEGORIES,
  REVISION_LEVELS,
  REVISION_MESSAGE,
  REVISION_STATUS_IDS,
  REVISION_STATUS_NAME,
  revisionEta,
  revisionRequestProblems,
  revisionRequestRefusal,
  revisionWindow,
} from './index';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('SPEC §4 revision statuses', () => {
  it('names all twelve', () => {
    expect(REVISION_STATUS_IDS).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(Object.values(REVISION_STATUS_NAME)).toHaveLength(12);
    expect(REVISION_STATUS_NAME[12]).toBe('Verifying');
  });
  it('counts 1, 2, 3 and 12 as active (CONTRACT)', () => {
    expect(ACTIVE_REVISION_STATUSES).toEqual([1, 2, 3, 12]);
  });
});

describe('revision state machine', () => {
  it.each([
    [1, 2],
    [2, 12],
    [12, 5],
    [1, 4],
    [1, 6],
    [1, 10],
    [2, 3],
    [2, 8],
    [2, 11],
    [3, 5],
    [12, 2],
    [5, 9],
    [5, 7],
  ])('allows %s → %s', (from, to) => expect(canMoveRevision(from, to)).toBe(true));
  it.each([
    [1, 5],
    [1, 12],
    [1, 1],
    [2, 5],
    [4, 2],
    [6, 1],
    [7, 2],
    [10, 2],
    [5, 2],
    [1, 13],
    [0, 1],
  ])('refuses %s → %s', (from, to) => expect(canMoveRevision(from, to)).toBe(false));
  it('ends in rejected, canceled, closed and expired', () => {
    for (const end of [4, 6, 7, 10]) for (const to of REVISION_STATUS_IDS) expect(canMoveRevision(end, to)).toBe(false);
  });
});

describe('SPEC §9 revision ETA', () => {
  it.each([
    [1, 12],
    [2, 16],
    [3, 20],
    [4, 24],
  ])('level %s is the request time plus %s hours', (level, hours) => {
    const at = new Date('2026-03-01T10:00:00Z');
    expect(revisionEta(at, level)?.getTime()).toBe(at.getTime() + hours * HOUR);
  });
  it('has no ETA for an unknown level', () => expect(revisionEta(new Date('2026-03-01T10:00:00Z'), 5)).toBeNull());
  it('offers the four levels and named categories', () => {
    expect(REVISION_LEVELS.map((l) => l.hours)).toEqual([12, 16, 20, 24]);
    expect(REVISION_CATEGORIES.length).toBeGreaterThan(0);
  });
});

describe('SPEC §9 revision period from completion (CONTRACT)', () => {
  const completedAt = new Date('2026-03-01T00:00:00Z');
  it('is 14 days under 30 pages', () => {
    expect(revisionWindow({ completedAt, pages: 29, now: completedAt }).until?.getTime()).toBe(completedAt.getTime() + 14 * DAY);
  });
  it('is 30 days from 30 pages on', () => {
    expect(revisionWindow({ completedAt, pages: 30, now: completedAt }).until?.getTime()).toBe(completedAt.getTime() + 30 * DAY);
  });
  it('counts whole days left, rounded up, and closes at its end', () => {
    expect(revisionWindow({ completedAt, pages: 1, now: new Date(completedAt.getTime() + 13.5 * DAY) })).toMatchObject({
      open: true,
      daysLeft: 1,
    });
    expect(revisionWindow({ completedAt, pages: 1, now: new Date(completedAt.getTime() + 14 * DAY) })).toMatchObject({
      open: false,
      daysLeft: 0,
    });
  });
  it('is closed before completion', () => {
    expect(revisionWindow({ completedAt: null, pages: 1, now: completedAt })).toEqual({ until: null, open: false, daysLeft: 0 });
  });
});

describe('who may request a revision', () => {
  const open = { until: new Date('2026-03-10T00:00:00Z'), open: true, daysLeft: 3 };
  it('refuses outside status 5, outside the window and with an active revision', () => {
    expect(revisionRequestRefusal({ orderStatus: 3, window: open, hasActiveRevision: false })?.code).toBe('notCompleted');
    expect(revisionRequestRefusal({ orderStatus: 5, window: { ...open, open: false }, hasActiveRevision: false })?.code).toBe(
      'windowClosed',
    );
    expect(revisionRequestRefusal({ orderStatus: 5, window: open, hasActiveRevision: true })?.message).toBe(
      REVISION_MESSAGE.activeRevision,
    );
    expect(revisionRequestRefusal({ orderStatus: 5, window: open, hasActiveRevision: false })).toBeNull();
  });
  it('checks categories, description and level by field', () => {
    expect(revisionRequestProblems({ category: [], describeProblem: ' ', revisionLevel: null })).toEqual({
      category: [REVISION_MESSAGE.categoryRequired],
      describeProblem: [REVISION_MESSAGE.descriptionRequired],
      revisionLevel: [REVISION_MESSAGE.levelRequired],
    });
    expect(revisionRequestProblems({ category: [1, 99], describeProblem: 'x', revisionLevel: 5 })).toEqual({
      category: [REVISION_MESSAGE.unknownCategory],
      revisionLevel: [REVISION_MESSAGE.unknownLevel],
    });
    expect(revisionRequestProblems({ category: [1], describeProblem: 'Fix the intro', revisionLevel: 2 })).toEqual({});
  });
});

describe('SPEC §4 revision wizard gates', () => {
  const base = { policyAccepted: true, categories: [1], description: 'Fix it', level: 1 as number | null, submitting: false };
  it('opens step 2 only after the policy', () => {
    expect(canOpenNatureStep({ policyAccepted: false })).toBe(false);
    expect(canOpenNatureStep({ policyAccepted: true })).toBe(true);
  });
  it('opens step 3 only with a category and a description', () => {
    expect(canOpenTimeFrameStep({ ...base, categories: [] })).toBe(false);
    expect(canOpenTimeFrameStep({ ...base, description: '   ' })).toBe(false);
    expect(canOpenTimeFrameStep(base)).toBe(true);
  });
  it('finishes only with a level and not while in flight', () => {
    expect(canFinishRevision({ ...base, level: null })).toBe(false);
    expect(canFinishRevision({ ...base, submitting: true })).toBe(false);
    expect(canFinishRevision(base)).toBe(true);
  });
});

describe('calendar file', () => {
  const ics = calendarFile({
    uid: 'revision-7@example.com',
    title: 'Revision #7 due, order #3',
    description: 'Fix the intro; add, sources',
    at: new Date('2026-03-01T10:00:00Z'),
    url: 'http://localhost:3000/orderinfo/3/revisions',
    now: new Date('2026-02-28T09:00:00Z'),
    timeZone: 'Europe/Kyiv',
  });
  it('is one UTC event ending at the moment, with CRLF lines', () => {
    expect(ics).toContain('DTEND:20260301T100000Z\r\n');
    expect(ics).toContain('DTSTART:20260301T093000Z\r\n');
    expect(ics).toContain('X-WR-TIMEZONE:Europe/Kyiv\r\n');
    expect(ics).toContain('DESCRIPTION:Fix the intro\\; add\\, sources\r\n');
    expect(ics.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
  });
  it('folds lines longer than 75 octets', () => {
    const long = calendarFile({
      uid: 'x',
      title: 'T'.repeat(200),
      description: '',
      at: new Date('2026-03-01T10:00:00Z'),
      url: 'u',
      now: new Date('2026-03-01T10:00:00Z'),
      timeZone: 'UTC',
    });
    for (const line of long.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
  });
});
