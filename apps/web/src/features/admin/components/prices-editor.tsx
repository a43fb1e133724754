import { useId, useMemo, useState } from 'react';
import { ADMIN_MESSAGE, adminPriceProblems } from '@app/domain/admin/rules';
import type { Calcs, Urgency } from '@app/domain/catalogue';
import { formatUsd } from '@app/domain/money';
import { siteCategoryName } from '@app/domain/settings/rules';
import { calculatePrice, toPriceTable, type PriceInput } from '@app/domain/pricing';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useCategoryNames, usePrices, usePublishPrices } from '../api/admin';

const EXTRA_NAME: Record<string, string> = {
  premiumWriter: 'Top writer',
  preferredWriter: 'Preferred writer',
  extraQualityCheck: 'Extra quality check',
  originalityReport: 'Originality report',
  onePageSummary: 'One-page summary',
};
const selectClass = 'block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900';

/** The draft the admin edits: amounts as typed, so a cleared field stays cleared until they type again. */
interface Draft {
  rates: { idWorkType: number; idLevel: number; urgency: number; pricePerPage: string }[];
  extras: { key: Calcs['extras'][number]['key']; kind: 'percent' | 'flat'; value: string }[];
  maxAmountDiscount: string;
}
const toDraft = (c: Calcs): Draft => ({
  rates: c.rates.map((r) => ({ ...r, pricePerPage: r.pricePerPage.toFixed(2) })),
  extras: c.extras.map((e) => ({ ...e, value: e.kind === 'flat' ? e.value.toFixed(2) : String(e.value) })),
  maxAmountDiscount: c.maxAmountDiscount.toFixed(2),
});
const number = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));
const fromDraft = (siteCategory: number, d: Draft): Calcs => ({
  siteCategory,
  currency: 'USD',
  rates: d.rates.map((r) => ({ ...r, pricePerPage: number(r.pricePerPage) })),
  extras: d.extras.map((e) => ({ ...e, value: number(e.value) })),
  maxAmountDiscount: number(d.maxAmountDiscount),
});

interface Sample {
  workType: number;
  level: number;
  urgency: number;
  /** as typed: a cleared field stays cleared */
  pages: string;
  spacing: 1 | 2;
  extras: Record<string, boolean>;
}

/** The wizard's price for the sample order over `calcs`, with the same domain function the wizard and the server run. */
const samplePrice = (calcs: Calcs, s: Sample): string => {
  const pages = Number(s.pages);
  if (!/^\d{1,3}$/.test(s.pages.trim()) || pages < 1 || pages > 100) return 'Enter 1 to 100 pages';
  if (calcs.rates.some((r) => !Number.isFinite(r.pricePerPage)) || calcs.extras.some((e) => !Number.isFinite(e.value))) return '—';
  const input: PriceInput = {
    workType: s.workType,
    level: s.level,
    urgency: s.urgency,
    pages,
    spacing: s.spacing,
    premiumWriter: s.extras.premiumWriter ?? false,
    preferredWriter: s.extras.preferredWriter ?? false,
    extraQualityCheck: s.extras.extraQualityCheck ?? false,
    originalityReport: s.extras.originalityReport ?? false,
    onePageSummary: s.extras.onePageSummary ?? false,
  };
  const result = calculatePrice(
    toPriceTable({ ...calcs, maxAmountDiscount: Number.isFinite(calcs.maxAmountDiscount) ? calcs.maxAmountDiscount : 0 }),
    input,
  );
  return result.ok ? formatUsd(result.price.finalPrice) : 'No price for this combination';
};

function CategoryEditor({ calcs, urgencies }: { calcs: Calcs; urgencies: Urgency[] }) {
  const names = useCategoryNames(calcs.siteCategory);
  const publish = usePublishPrices();
  const [draft, setDraft] = useState<Draft>(() => toDraft(calcs));
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const [message, setMessage] = useState<string | null>(null);

  const workTypes = [...new Set(calcs.rates.map((r) => r.idWorkType))];
  const levels = [...new Set(calcs.rates.map((r) => r.idLevel))];
  const [workType, setWorkType] = useState(workTypes[0] ?? 1);
  const [level, setLevel] = useState(levels[0] ?? 1);
  const first = calcs.rates[0];
  const [sample, setSample] = useState<Sample>({
    workType: first?.idWorkType ?? 1,
    level: first?.idLevel ?? 1,
    urgency: first?.urgency ?? 240,
    pages: '2',
    spacing: 2,
    extras: {},
  });

  const parsed = fromDraft(calcs.siteCategory, draft);
  const problems = useMemo(
    () =>
      adminPriceProblems(
        { ...parsed, rates: parsed.rates.map((r) => ({ ...r, pricePerPage: Number.isFinite(r.pricePerPage) ? r.pricePerPage : 0 })) },
        urgencies.map((u) => u.hours),
      ),
    [parsed, urgencies],
  );
  const errorOf = (key: string): string | undefined => problems[key]?.[0] ?? serverErrors[key]?.[0];
  const nameOf = (list: { id: number; name: string }[] | undefined, id: number, kind: string) =>
    list?.find((i) => i.id === id)?.name ?? `${kind} ${id}`;
  const urgencyName = (hours: number) => urgencies.find((u) => u.hours === hours)?.name ?? `${hours} hours`;
  const changed = JSON.stringify(toDraft(calcs)) !== JSON.stringify(draft);
  const blocked = Object.keys(problems).length > 0;
  const headingId = useId();

  const onPublish = () => {
    setMessage(null);
    setServerErrors({});
    if (blocked) {
      setMessage(Object.values(problems)[0]?.[0] ?? ADMIN_MESSAGE.priceNotPositive);
      return;
    }
    publish.mutate(
      { siteCategory: calcs.siteCategory, rates: parsed.rates, extras: parsed.extras, maxAmountDiscount: parsed.maxAmountDiscount },
      {
        onSuccess: () => toast.success(`${siteCategoryName(calcs.siteCategory)} prices published for new quotes`),
        onError: (error) => {
          setMessage(errorMessage(error));
          if (error instanceof ApiError) setServerErrors(error.fieldErrors);
        },
      },
    );
  };

  const visible = draft.rates.map((r, index) => ({ r, index })).filter(({ r }) => r.idWorkType === workType && r.idLevel === level);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <h2 id={headingId} className="text-lg font-semibold">
        {siteCategoryName(calcs.siteCategory)}: price per page by urgency
      </h2>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Work type">
          {(control) => (
            <select {...control} className={selectClass} value={workType} onChange={(e) => setWorkType(Number(e.target.value))}>
              {workTypes.map((id) => (
                <option key={id} value={id}>
                  {nameOf(names.data?.workTypes, id, 'Work type')}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Level">
          {(control) => (
            <select {...control} className={selectClass} value={level} onChange={(e) => setLevel(Number(e.target.value))}>
              {levels.map((id) => (
                <option key={id} value={id}>
                  {nameOf(names.data?.levels, id, 'Level')}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <ul aria-label="Rates" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {visible.map(({ r, index }) => (
          <li key={`${r.idWorkType}:${r.idLevel}:${r.urgency}`}>
            <Field
              label={`${urgencyName(r.urgency)} (USD per page)`}
              error={errorOf(`rates.${index}.pricePerPage`) ?? errorOf(`rates.${index}.urgency`)}
            >
              {(control) => (
                <Input
                  {...control}
                  inputMode="decimal"
                  value={r.pricePerPage}
                  onChange={(e) =>
                    setDraft((d) => ({ ...d, rates: d.rates.map((x, i) => (i === index ? { ...x, pricePerPage: e.target.value } : x)) }))
                  }
                />
              )}
            </Field>
          </li>
        ))}
      </ul>
      <h3 className="text-base font-semibold">Extras</h3>
      <ul aria-label="Extras" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {draft.extras.map((e, index) => (
          <li key={e.key}>
            <Field
              label={`${EXTRA_NAME[e.key] ?? e.key} (${e.kind === 'percent' ? '% of the basic price' : 'USD'})`}
              error={errorOf(`extras.${index}.value`)}
            >
              {(control) => (
                <Input
                  {...control}
                  inputMode="decimal"
                  value={e.value}
                  onChange={(ev) =>
                    setDraft((d) => ({ ...d, extras: d.extras.map((x, i) => (i === index ? { ...x, value: ev.target.value } : x)) }))
                  }
                />
              )}
            </Field>
          </li>
        ))}
        <li>
          <Field label="Largest discount (USD)" error={errorOf('maxAmountDiscount')}>
            {(control) => (
              <Input
                {...control}
                inputMode="decimal"
                value={draft.maxAmountDiscount}
                onChange={(e) => setDraft((d) => ({ ...d, maxAmountDiscount: e.target.value }))}
              />
            )}
          </Field>
        </li>
      </ul>

      <section aria-labelledby={`${headingId}-preview`} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4">
        <h3 id={`${headingId}-preview`} className="text-base font-semibold">
          Preview: the wizard&apos;s price for a sample order
        </h3>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Field label="Sample work type">
            {(control) => (
              <select
                {...control}
                className={selectClass}
                value={sample.workType}
                onChange={(e) => setSample((s) => ({ ...s, workType: Number(e.target.value) }))}
              >
                {workTypes.map((id) => (
                  <option key={id} value={id}>
                    {nameOf(names.data?.workTypes, id, 'Work type')}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Sample level">
            {(control) => (
              <select
                {...control}
                className={selectClass}
                value={sample.level}
                onChange={(e) => setSample((s) => ({ ...s, level: Number(e.target.value) }))}
              >
                {levels.map((id) => (
                  <option key={id} value={id}>
                    {nameOf(names.data?.levels, id, 'Level')}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Sample deadline">
            {(control) => (
              <select
                {...control}
                className={selectClass}
                value={sample.urgency}
                onChange={(e) => setSample((s) => ({ ...s, urgency: Number(e.target.value) }))}
              >
                {urgencies.map((u) => (
                  <option key={u.id} value={u.hours}>
                    {u.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Sample pages">
            {(control) => (
              <Input
                {...control}
                type="number"
                min={1}
                max={100}
                value={sample.pages}
                onChange={(e) => setSample((s) => ({ ...s, pages: e.target.value }))}
              />
            )}
          </Field>
        </div>
        <fieldset className="flex flex-wrap gap-x-4 gap-y-2">
          <legend className="mb-1 text-sm font-medium text-slate-800">Sample extras</legend>
          {calcs.extras.map((e) => (
            <label key={e.key} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={sample.extras[e.key] ?? false}
                onChange={(ev) => setSample((s) => ({ ...s, extras: { ...s.extras, [e.key]: ev.target.checked } }))}
              />
              {EXTRA_NAME[e.key] ?? e.key}
            </label>
          ))}
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={sample.spacing === 1}
              onChange={(ev) => setSample((s) => ({ ...s, spacing: ev.target.checked ? 1 : 2 }))}
            />
            Single spacing
          </label>
        </fieldset>
        <dl className="grid grid-cols-2 gap-2 text-sm sm:max-w-md" aria-live="polite">
          <dt className="text-slate-700">Now</dt>
          <dd className="font-semibold" data-testid="preview-now">
            {samplePrice(calcs, sample)}
          </dd>
          <dt className="text-slate-700">After publishing</dt>
          <dd className="font-semibold" data-testid="preview-after">
            {samplePrice(parsed, sample)}
          </dd>
        </dl>
      </section>

      {message && <Alert tone="error">{message}</Alert>}
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={onPublish} busy={publish.isPending} disabled={!changed}>
          Publish prices
        </Button>
        <Button variant="secondary" disabled={!changed || publish.isPending} onClick={() => setDraft(toDraft(calcs))}>
          Discard changes
        </Button>
        <p className="text-sm text-slate-700">New quotes only: existing orders keep the price they were placed at.</p>
      </div>
    </section>
  );
}

/** ADR 0090: the price tables, urgencies and extras of each offered category, previewed before publishing. */
export function PricesEditor() {
  const prices = usePrices();
  const [category, setCategory] = useState<number | null>(null);
  if (prices.isPending)
    return (
      <p role="status" className="flex items-center gap-2 text-sm">
        <Spinner /> Loading prices…
      </p>
    );
  if (prices.isError)
    return (
      <Alert tone="error" title="Prices could not be loaded">
        {errorMessage(prices.error)}
      </Alert>
    );
  const current = prices.data.categories.find((c) => c.siteCategory === category) ?? prices.data.categories[0];
  if (!current) return <p>No category is offered.</p>;
  return (
    <div className="flex flex-col gap-4">
      <Field label="Category">
        {(control) => (
          <select
            {...control}
            className={`${selectClass} sm:max-w-xs`}
            value={current.siteCategory}
            onChange={(e) => setCategory(Number(e.target.value))}
          >
            {prices.data.categories.map((c) => (
              <option key={c.siteCategory} value={c.siteCategory}>
                {siteCategoryName(c.siteCategory)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <CategoryEditor key={`${current.siteCategory}:${prices.dataUpdatedAt}`} calcs={current} urgencies={prices.data.urgencies} />
    </div>
  );
}
