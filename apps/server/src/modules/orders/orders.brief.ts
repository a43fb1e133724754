import type { StaffBrief } from '@app/domain';
import type { Queryable } from '../../db/client';
import { selectOrderDetailForStaff } from './orders.repo';
import { toOrderDetail } from './orders.wire';

/**
 * ADR 0089: the brief staff read, every field of SPEC §3 the customer filled, mapped exactly as the
 * customer's order page maps them (the same `toOrderDetail`), with what the writer's terms are computed from.
 */
export const readOrderBrief = async (
  q: Queryable,
  orderId: number,
): Promise<{ brief: StaffBrief; createdAt: Date; deadline: Date; finalPriceCents: number } | null> => {
  const row = await selectOrderDetailForStaff(q, orderId);
  if (!row) return null;
  const d = toOrderDetail(row, {
    history: [],
    fileForDownload: null,
    feedback: null,
    orderMoney: null,
    activeRevision: null,
    afterPayment: { delivery: null, extensionRequest: null, events: [] },
  });
  const brief: StaffBrief = {
    siteCategory: d.siteCategory,
    description: d.description,
    credentials: d.credentials,
    pages: d.pages,
    sources: d.sources,
    urgency: d.urgency,
    paragraphSpacing: d.paragraphSpacing,
    subject: d.subject,
    assignment: d.assignment,
    resumeService: d.resumeService,
    paperFormat: d.paperFormat,
    academicLevel: d.academicLevel,
    resumeLevel: d.resumeLevel,
    thesisLevel: d.thesisLevel,
    features: d.features,
    preferredWritersList: d.preferredWritersList,
    preferredWriterAnother: d.preferredWriterAnother,
    deadline: d.deadline,
  };
  return { brief, createdAt: row.createdAt, deadline: row.deadline, finalPriceCents: row.finalPriceCents };
};
