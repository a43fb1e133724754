import { useState } from 'react';
import { Link } from 'wouter';
import type { GeneratedDiscount, LoyaltyRule, LoyaltySummary } from '@app/domain/loyalty';
import { formatPercent, LOYALTY_MESSAGE, nextLevelHint, nextLevelHintText } from '@app/domain/loyalty/rules';
import { amountToCents, formatUsd } from '@app/domain/money';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClass } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { useGenerateLoyaltyCode, useLoyaltySummary } from '../api/loyalty';
import { CopyButton } from './copy-button';

const ruleRange = (r: LoyaltyRule): string =>
  r.to === null ? `${r.from.toLocaleString()}+` : `${r.from.toLocaleString()}–${r.to.toLocaleString()}`;
const sameRule = (a: LoyaltyRule, b: LoyaltyRule): boolean => a.from === b.from;

/** SPEC §3 "Loyalty": the rules with the current one highlighted (marked in words too, not by colour alone). */
function RulesTable({ summary }: { summary: LoyaltySummary }) {
  return (
    <table className="w-full border-collapse text-sm">
      <caption className="sr-only">Loyalty rules: points and the discount they give</caption>
      <thead className="bg-slate-50 text-left text-slate-700">
        <tr>
          <th scope="col" className="px-3 py-2 font-medium">
            Points
          </th>
          <th scope="col" className="px-3 py-2 text-right font-medium">
            Discount
          </th>
        </tr>
      </thead>
      <tbody>
        {summary.rules.map((rule) => {
          const current = sameRule(rule, summary.currentRule);
          return (
            <tr
              key={rule.from}
              aria-current={current ? 'true' : undefined}
              className={`border-t border-slate-200 ${current ? 'bg-primary/10 font-semibold' : ''}`}
            >
              <td className="px-3 py-2 tabular-nums">
                {ruleRange(rule)}
                {current && <span className="ml-2 rounded-full bg-slate-900 px-2 py-0.5 text-xs font-semibold text-white">Your level</span>}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{formatPercent(rule.percent)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The code to use, with copy and a link to the wizard that applies it (SPEC §2 order query discountCode). */
export function CodeCard({ discount }: { discount: GeneratedDiscount }) {
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-green-300 bg-green-50 p-4" data-testid="loyalty-code">
      <p className="text-sm text-green-950">
        Your {formatPercent(discount.percent)} discount code (up to {formatUsd(amountToCents(discount.maxAmountDiscount))} off one order,
        single use):
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <code className="rounded bg-white px-3 py-1.5 font-mono text-lg font-semibold tracking-wider text-slate-900 ring-1 ring-green-300">
          {discount.code}
        </code>
        <CopyButton text={discount.code} label={`Copy the code ${discount.code}`} />
        <Link to={`/order?discountCode=${encodeURIComponent(discount.code)}`} className={buttonClass('primary')}>
          Use it on a new order
        </Link>
      </div>
    </div>
  );
}

/** SPEC §2 /loyalty: the balance, the rules, the earning rule and the generate-code flow (ADR 0050). */
export function PointsPanel() {
  const summary = useLoyaltySummary();
  const generate = useGenerateLoyaltyCode();
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  if (summary.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-700">
        <Spinner /> Loading your points…
      </p>
    );
  }
  if (summary.isError) return <Alert tone="error">Something went wrong while loading your points.</Alert>;
  const s = summary.data;
  // ADR 0097: close to the next level, the dialog (and the refusal) say how many points more give what.
  const hint = nextLevelHint(s.points, s.rules);
  const hintLine = hint && (
    <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-300 ring-inset" data-testid="next-level-hint">
      {nextLevelHintText(hint)}
      {s.generation ? ': you may wait for it and generate then.' : '.'}
    </p>
  );

  const onGenerate = () => {
    setRefusal(null);
    if (s.generation === null) {
      // SPEC §5: the rule percent must be above 0; the server says the same if asked.
      setRefusal(LOYALTY_MESSAGE.notEnoughPoints);
      return;
    }
    setConfirming(true);
  };
  const onConfirm = () => {
    generate.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        toast.success('Your discount code is ready');
      },
      onError: (error) => {
        setConfirming(false);
        setRefusal(errorMessage(error));
      },
    });
  };

  return (
    <section aria-labelledby="points-heading" className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1">
          <h2 id="points-heading" className="text-lg font-semibold">
            Loyalty points
          </h2>
          <p className="text-4xl font-bold tabular-nums" data-testid="points-balance">
            {s.points.toLocaleString()} <span className="text-base font-medium text-slate-700">points</span>
          </p>
          <p className="text-sm text-slate-700" data-testid="points-to-next">
            {s.nextRule === null || s.pointsToNextRule === null
              ? `You are on the highest level: ${formatPercent(s.currentRule.percent)} off.`
              : `${s.pointsToNextRule.toLocaleString()} points to the next level (${formatPercent(s.nextRule.percent)} off).`}
          </p>
        </div>
        {s.code === null && (
          <Button onClick={onGenerate} busy={generate.isPending}>
            Generate discount code
          </Button>
        )}
      </div>
      {refusal && <Alert tone="error">{refusal}</Alert>}
      {refusal && !confirming && hintLine}
      {s.code && <CodeCard discount={s.code} />}
      <div className="grid gap-4 lg:grid-cols-2">
        <RulesTable summary={s} />
        <div className="flex flex-col gap-2 text-sm text-slate-800">
          <h3 className="font-semibold">How points work</h3>
          <p>{s.earningRule}</p>
          <p>
            When your points reach a level with a discount, generate a code: it spends the points that reach your level (the rest stays) and
            takes that level&apos;s percent off one order, up to {formatUsd(amountToCents(s.maxAmountDiscount))}.
          </p>
        </div>
      </div>
      <Dialog open={confirming} onOpenChange={(open) => !generate.isPending && setConfirming(open)} title="Generate a discount code?">
        {s.generation && (
          <div className="flex flex-col gap-4 text-sm">
            <p>
              You get a <strong>{formatPercent(s.generation.percent)}</strong> code for one order (up to{' '}
              {formatUsd(amountToCents(s.maxAmountDiscount))} off).
            </p>
            <p data-testid="generation-cost">
              It uses <strong>{s.generation.pointsSpent.toLocaleString()}</strong> of your {s.points.toLocaleString()} points;{' '}
              <strong>{s.generation.pointsLeft.toLocaleString()}</strong> remain.
            </p>
            {hintLine}
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="secondary" onClick={() => setConfirming(false)} disabled={generate.isPending}>
                Cancel
              </Button>
              <Button onClick={onConfirm} busy={generate.isPending}>
                Generate code
              </Button>
            </div>
          </div>
        )}
      </Dialog>
    </section>
  );
}
