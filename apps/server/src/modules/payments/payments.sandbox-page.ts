import { PAYMENT_SYSTEM_NAME, formatUsd, type PaymentSystem } from '@app/domain';
import type { PaymentRow } from './payments.repo';
import { escapeHtml } from '../../lib/html';

/**
 * The sandbox page of a provider (CONTRACT "Payments"): the order, the amount with 2 decimals (SPEC §9),
 * Pay and Decline. Plain forms and no script, so the strict CSP holds; the style carries the response's nonce.
 */
export const renderSandboxPage = ({
  provider,
  payment,
  order,
  styleNonce,
}: {
  provider: PaymentSystem;
  payment: PaymentRow;
  order: { id: number; title: string };
  styleNonce: string;
}): string => {
  const name = escapeHtml(PAYMENT_SYSTEM_NAME[provider]);
  const action = `/sandbox/${provider}/${encodeURIComponent(payment.id)}`;
  const open = payment.state === 'created' || payment.state === 'pending';
  const body = open
    ? `<form method="post" action="${action}/pay"><button type="submit" class="pay">Pay ${escapeHtml(formatUsd(payment.amountCents))}</button></form>
      <form method="post" action="${action}/decline"><button type="submit" class="decline">Decline</button></form>`
    : `<p>This payment is already ${escapeHtml(payment.state)}.</p><p><a href="/orderinfo/${order.id}/details">Back to the order</a></p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name} sandbox</title>
<style nonce="${escapeHtml(styleNonce)}">
body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; color: #111827; }
.card { border: 1px solid #d1d5db; border-radius: 0.75rem; padding: 1.5rem; }
.note { color: #6b7280; font-size: 0.875rem; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; }
dt { color: #6b7280; }
form { display: inline-block; margin: 1rem 0.5rem 0 0; }
button { font: inherit; padding: 0.6rem 1.2rem; border-radius: 0.5rem; border: 1px solid transparent; cursor: pointer; }
.pay { background: #1d4ed8; color: #fff; }
.decline { background: #fff; border-color: #d1d5db; color: #111827; }
</style>
</head>
<body>
<main class="card">
<h1>${name} sandbox</h1>
<p class="note">No money moves here: this page stands in for ${name} because no credentials are configured.</p>
<dl>
<dt>Order</dt><dd>#${order.id}</dd>
<dt>Title</dt><dd>${escapeHtml(order.title)}</dd>
<dt>Amount</dt><dd>${escapeHtml(formatUsd(payment.amountCents))}</dd>
</dl>
${body}
</main>
</body>
</html>`;
};
