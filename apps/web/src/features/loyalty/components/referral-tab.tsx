import { useState } from 'react';
import { formatPercent } from '@app/domain/loyalty/rules';
import type { ReferralItem } from '@app/domain/referral';
import {
  isReferralFilterId,
  REFERRAL_FILTER_IDS,
  REFERRAL_MESSAGE,
  REFERRAL_STATUS,
  REFERRAL_STATUS_NAME,
  type ReferralFilterId,
} from '@app/domain/referral/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { useGenerateReferralDiscount, useReferralInfo, useReferrals } from '../api/loyalty';
import { CopyButton } from './copy-button';
import { ShareReferral } from './share-referral';
import { formatDate } from '@/lib/dates';

const STATUS_CLASS: Record<number, string> = {
  1: 'bg-slate-200 text-slate-900 ring-slate-400',
  2: 'bg-indigo-100 text-indigo-900 ring-indigo-300',
  3: 'bg-green-100 text-green-900 ring-green-300',
  4: 'bg-sky-100 text-sky-900 ring-sky-300',
  5: 'bg-slate-100 text-slate-900 ring-slate-300',
  6: 'bg-red-100 text-red-900 ring-red-300',
};

function ReferralRow({ referral }: { referral: ReferralItem }) {
  const generate = useGenerateReferralDiscount();
  const ready = referral.status.id === REFERRAL_STATUS.readyToUse;
  const onGenerate = () =>
    generate.mutate(referral.id, {
      onSuccess: () => toast.success('Your referral discount is ready'),
      // SPEC §8 "Referral discount failure": one text whatever the cause.
      onError: () => toast.error(REFERRAL_MESSAGE.generationFailed),
    });
  return (
    <li
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:flex-row sm:items-center sm:justify-between"
      data-testid="referral-item"
    >
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-semibold break-words">
          {referral.firstName || 'Your friend'} <span className="font-normal text-slate-700">{referral.email}</span>
        </p>
        <p className="text-slate-700">
          Joined <time dateTime={referral.dateCreated}>{formatDate(referral.dateCreated)}</time>
        </p>
        {referral.discount && (
          <p className="flex flex-wrap items-center gap-2">
            <code className="rounded bg-slate-100 px-2 py-0.5 font-mono font-semibold">{referral.discount.code}</code>
            <span>{formatPercent(referral.discount.percent)} off</span>
            {referral.discount.state === 'active' && referral.discount.expiresAt && (
              <span className="text-slate-700">until {formatDate(referral.discount.expiresAt)}</span>
            )}
            {referral.discount.state === 'active' && (
              <CopyButton text={referral.discount.code} label={`Copy the code ${referral.discount.code}`} />
            )}
          </p>
        )}
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-3">
        <span
          className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${STATUS_CLASS[referral.status.id] ?? ''}`}
        >
          {referral.status.name}
        </span>
        {ready && (
          <Button onClick={onGenerate} busy={generate.isPending}>
            Generate discount
          </Button>
        )}
      </div>
    </li>
  );
}

/** SPEC §2 /loyalty referral sub-tab: the link with copy, the friends with the status filter 0–6 (ADR 0051). */
export function ReferralTab() {
  const info = useReferralInfo();
  const [status, setStatus] = useState<ReferralFilterId>(0);
  const list = useReferrals(status);

  return (
    <div className="flex flex-col gap-4">
      <section
        aria-labelledby="referral-link-heading"
        className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
      >
        <h2 id="referral-link-heading" className="text-lg font-semibold">
          Invite friends
        </h2>
        <p className="text-sm text-slate-800">
          Share your link. When a friend signs up with it and pays for their first order, you can generate a discount for yourself.
        </p>
        {info.isError && <Alert tone="error">Something went wrong while loading your referral link.</Alert>}
        {info.data && (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <label htmlFor="referral-link" className="sr-only">
                Your referral link
              </label>
              <input
                id="referral-link"
                readOnly
                value={info.data.url}
                onFocus={(e) => e.currentTarget.select()}
                className="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm"
              />
            </div>
            <ShareReferral url={info.data.url} />
            <p className="text-sm text-slate-700" data-testid="ready-referrals">
              Ready to use: {info.data.readyReferrals}
            </p>
          </>
        )}
      </section>

      <section aria-labelledby="referral-list-heading" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="referral-list-heading" className="text-lg font-semibold">
            Your referrals
          </h2>
          <div className="flex flex-col gap-1">
            <label htmlFor="referral-status" className="text-sm font-medium">
              Status
            </label>
            <select
              id="referral-status"
              value={status}
              onChange={(e) => {
                const next = Number(e.target.value);
                if (isReferralFilterId(next)) setStatus(next);
              }}
              className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
            >
              {REFERRAL_FILTER_IDS.map((id) => (
                <option key={id} value={id}>
                  {REFERRAL_STATUS_NAME[id]}
                </option>
              ))}
            </select>
          </div>
        </div>
        {list.isPending && (
          <p className="flex items-center gap-2 text-sm text-slate-700">
            <Spinner /> Loading your referrals…
          </p>
        )}
        {list.isError && <Alert tone="error">Something went wrong while loading your referrals.</Alert>}
        {list.data && list.data.referrals.length === 0 && (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-700">
            {status === 0
              ? 'No friends have joined with your link yet.'
              : `No referrals with the status “${REFERRAL_STATUS_NAME[status]}”.`}
          </p>
        )}
        {list.data && list.data.referrals.length > 0 && (
          <ul aria-label="Your referrals" className="flex flex-col gap-3" aria-busy={list.isFetching || undefined}>
            {list.data.referrals.map((r) => (
              <ReferralRow key={r.id} referral={r} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
