import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { server } from '@/testing/msw-server';
import { signIn } from '@/testing/fixtures';
import { currentUrl, renderApp } from '@/testing/render-app';
import { WIZARD_STORAGE_KEY } from '../lib/persisted-state';
import { discountHandler, priceCalcHandler } from '@/testing/price-calc-handler';

// The wizard's lazy steps load on first use; on a busy 2-core machine that takes a while.
vi.setConfig({ testTimeout: 20_000 });

// The server confirms every price (ADR 0027): here it answers as pricing.service does.
beforeEach(() => {
  server.use(priceCalcHandler(), discountHandler());
});

const open = async (url: string) => {
  const view = renderApp(url);
  await screen.findByRole('heading', { level: 1, name: /New Order|Edit order/ }, { timeout: 15_000 });
  await screen.findByTestId('final-price', {}, { timeout: 15_000 });
  return view;
};
const total = () => screen.getAllByTestId('final-price')[0]?.textContent;
const stored = () => JSON.parse(localStorage.getItem(WIZARD_STORAGE_KEY) ?? '{}') as Record<string, unknown>;

describe('step 1', () => {
  it('asks for the subject before step 2: \'Choose the required "Subject"\'', async () => {
    const { user, router } = await open('/order');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Choose the required "Subject"')).toBeInTheDocument();
    expect(screen.getByLabelText('Subject')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Subject')).toHaveFocus();
    await user.selectOptions(screen.getByLabelText('Subject'), 'History');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByLabelText('Paper details')).toBeInTheDocument();
    expect(currentUrl(router)).toContain('step=2');
  });

  it('does not open a later step from the URL before the earlier ones are complete', async () => {
    await open('/order?step=3');
    expect(screen.getByRole('button', { name: /Step 1/ })).toHaveAttribute('aria-current', 'step');
  });

  it('changes the price in the same render as the input, and shows words beside pages', async () => {
    const { user } = await open('/order');
    await waitFor(() => expect(total()).toBe('$10.00'));
    await user.click(screen.getByRole('button', { name: 'More pages' }));
    expect(total()).toBe('$20.00');
    expect(screen.getByText('600 words')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Single' }));
    expect(screen.getByText('1200 words')).toBeInTheDocument();
    expect(total()).toBe('$40.00');
  });

  it('presentation relabels pages as slides and disables spacing', async () => {
    const { user } = await open('/order?id_spacing=1');
    await user.click(screen.getByRole('radio', { name: 'Presentation' }));
    expect(screen.getByLabelText('Slides')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Double' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'Single' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'Double' })).toBeChecked();
    // Issue 27: a greyed-out choice says why.
    expect(screen.getByRole('radio', { name: 'Single' })).toHaveAccessibleDescription('Presentations are always double-spaced');
  });

  it('level 4 or 5 disables the urgencies 3 and 6 and moves a chosen one away', async () => {
    const { user } = await open('/order?urgency=12');
    expect(screen.getByRole('radio', { name: '12 hours' })).toBeChecked();
    await screen.findByRole('option', { name: 'PhD' });
    await user.selectOptions(screen.getByLabelText('Academic level'), 'PhD');
    expect(screen.getByRole('radio', { name: '24 hours' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: '12 hours' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: '12 hours' })).toHaveAccessibleDescription(
      'Not available at this level: too short for the depth it needs',
    );
    await waitFor(() => expect(screen.getByRole('radio', { name: '2 days' })).toBeChecked());
  });

  it("shows each deadline's date and time in the customer's zone (issue 27)", async () => {
    vi.useFakeTimers({ now: new Date('2026-03-02T10:00:00Z'), toFake: ['Date'] });
    try {
      await open('/order');
      const expected = new Intl.DateTimeFormat(undefined, {
        weekday: 'short',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      });
      expect(screen.getByRole('radio', { name: '2 days' })).toHaveAccessibleDescription(
        `by ${expected.format(new Date('2026-03-04T10:00:00Z'))}`,
      );
      expect(screen.getByRole('radio', { name: '12 hours' })).toHaveAccessibleDescription(
        `by ${expected.format(new Date('2026-03-02T22:00:00Z'))}`,
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the volume warning for many pages on a short deadline', async () => {
    await open('/order?pages=5&urgency=48');
    expect(screen.getByText('You are about to place an order that will be tough to complete due to its volume')).toBeInTheDocument();
    expect(screen.getByText('Please consider extending the deadline')).toBeInTheDocument();
  });

  it('offers the service choice when the site has several categories; resume shows resume services', async () => {
    const { user } = await open('/order');
    await user.click(screen.getByRole('radio', { name: 'Resume' }));
    expect(await screen.findByLabelText('Resume service')).toBeInTheDocument();
    expect(screen.getByLabelText('Career level')).toBeInTheDocument();
    expect(screen.queryByLabelText('Type of paper')).not.toBeInTheDocument();
  });
});

describe('step 2', () => {
  it('shows the SPEC §5 messages next to the fields on blur and on continue', async () => {
    const { user } = await open('/order?subject=1&step=2');
    const title = await screen.findByLabelText('Title');
    await user.type(title, 'abc');
    await user.tab();
    expect(screen.getByText('We will leave the "Title" choice to writer')).toBeInTheDocument();
    // Issue 27: what was typed stays (the body sends 'Writer's Choice', toOrderBody).
    expect(title).toHaveValue('abc');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Fill out either "Paper Details" or "File(s)" field')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Paper details'), 'short');
    await user.tab();
    expect(await screen.findByText('Min: 10 characters')).toBeInTheDocument();
  });

  it('editing and proofreading needs a file', async () => {
    const { user } = await open('/order?subject=1&workType=2&step=2&description=Please%20proofread%20it');
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please attach a file: editing and proofreading needs your document')).toBeInTheDocument();
  });

  it('an urgency under 24 hours disables the extra quality check; presentation disables the summary', async () => {
    await open('/order?subject=1&urgency=12&workType=3&extraqualityCheck=2&onePageSummary=2&step=2');
    expect(await screen.findByLabelText('Extra quality check')).toBeDisabled();
    expect(screen.getByLabelText('Extra quality check')).not.toBeChecked();
    expect(screen.getByLabelText('One-page summary')).toBeDisabled();
    expect(screen.getByLabelText('One-page summary')).not.toBeChecked();
  });

  it('refuses a file of a type not on the list, with the SPEC §5 message', async () => {
    const { user } = await open('/order?subject=1&step=2');
    const input = await screen.findByLabelText('Attach files');
    // The picker's accept list would hide it; a drop or "All files" lets it through, and the rule still holds.
    fireEvent.change(input, { target: { files: [new File(['x'], 'virus.exe', { type: 'application/octet-stream' })] } });
    // ADR 0096: the drop zone reads the picked files asynchronously (react-dropzone), as it reads a drop.
    expect(await screen.findByText(/virus\.exe: Invalid file format\. Acceptable file formats: txt, zip/)).toBeInTheDocument();
    fireEvent.change(input, { target: { files: [new File(['hello'], 'brief.pdf', { type: 'application/pdf' })] } });
    const list = await screen.findByRole('list', { name: 'Attached files' });
    expect(within(list).getByText('brief.pdf')).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Remove brief.pdf' }));
    expect(screen.queryByRole('list', { name: 'Attached files' })).not.toBeInTheDocument();
  });

  it('shows what each extra adds to the price beside its box before it is ticked (issue 27)', async () => {
    await open('/order?subject=1&step=2');
    const premium = await screen.findByRole('checkbox', { name: /^Premium writer \+\$\d+\.\d\d$/ });
    expect(premium).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: /^Originality report \+\$\d+\.\d\d$/ })).not.toBeChecked();
  });

  it('shows the premium writer tooltip from a keyboard-usable button', async () => {
    const { user } = await open('/order?subject=1&step=2');
    await user.click(await screen.findByRole('button', { name: 'About Premium writer' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('One of our 10 top specialists in your subject');
  });
});

describe('analytics debug', () => {
  it('logs the wizard events to the console with _ym_debug=1', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const { user } = await open('/order?_ym_debug=1&subject=1');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(info).toHaveBeenCalledWith('[order-wizard]', 'step', 2));
    expect(info).toHaveBeenCalledWith('[order-wizard]', 'price', 1000);
    info.mockRestore();
  });
});

describe('persistence and prefill', () => {
  it('keeps the form across a remount (refresh) and says files must be attached again', async () => {
    const first = await open('/order?subject=2&step=2');
    await first.user.type(await screen.findByLabelText('Paper details'), 'A long enough description');
    await first.user.upload(screen.getByLabelText('Attach files'), new File(['a'], 'notes.docx'));
    expect(within(await screen.findByRole('list', { name: 'Attached files' })).getByText('notes.docx')).toBeInTheDocument();
    first.unmount();
    await open('/order?step=2');
    expect(await screen.findByLabelText('Paper details')).toHaveValue('A long enough description');
    expect(screen.getByText(/Please attach your files again: notes\.docx/)).toBeInTheDocument();
  });

  it('prefills every named field from the query string', async () => {
    await open('/order?pages=3&sources=4&level=2&paperFormat=2&urgency=48');
    await screen.findByRole('option', { name: 'College' });
    await screen.findByRole('option', { name: 'APA' });
    expect(screen.getByLabelText('Pages')).toHaveValue('3');
    expect(screen.getByLabelText('Sources')).toHaveValue('4');
    expect(screen.getByLabelText('Academic level')).toHaveValue('2');
    expect(screen.getByLabelText('Paper format')).toHaveValue('2');
    expect(screen.getByRole('radio', { name: '2 days' })).toBeChecked();
  });
});

describe('discount', () => {
  it('applies, shows the discount in the price, and resets when applied again', async () => {
    const { user } = await open('/order?subject=1&description=Ten%20characters%20at%20least&step=3');
    // Issue 27: behind "Have a code?" in the price summary; checkout no longer opens with it.
    expect(screen.queryByLabelText('Discount code')).not.toBeInTheDocument();
    const haveCode = await screen.findByRole('button', { name: 'Have a code?' });
    expect(haveCode).toHaveAttribute('aria-expanded', 'false');
    await user.click(haveCode);
    expect(screen.getByLabelText('Discount code')).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Please enter your discount')).toBeInTheDocument();
    // Nothing typed is a hint, not an error painted red.
    expect(screen.getByLabelText('Discount code')).not.toHaveAttribute('aria-invalid');
    await user.type(screen.getByLabelText('Discount code'), 'WELCOME10');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Your discount has been successfully applied')).toBeInTheDocument();
    expect(total()).toBe('$9.00');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(total()).toBe('$10.00'));
    await user.clear(screen.getByLabelText('Discount code'));
    await user.type(screen.getByLabelText('Discount code'), 'NOPE');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Invalid discount code')).toBeInTheDocument();
  });

  it('arrives applied from ?discount=, and a top-writer code asks for the premium writer', async () => {
    await open('/order?subject=1&description=Ten%20characters%20at%20least&step=3&discount=TOPWRITER20');
    expect(await screen.findByText('Please enable Top Writer feature to use this discount')).toBeInTheDocument();
    expect(total()).toBe('$10.00');
  });
});

describe('checkout', () => {
  const stepThree = '/order?subject=1&description=Ten%20characters%20at%20least&step=3';

  it("switches to 'I have an account' when checkmail says the email is registered", async () => {
    server.use(http.post('/api/checkmail', () => HttpResponse.json({ status: 'fail' })));
    const { user } = await open(stepThree);
    await user.type(await screen.findByLabelText('Email'), 'demo@example.com');
    await user.tab();
    expect(await screen.findByText('This email is already registered. Maybe you are already a member.')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'I have an account' })).toBeChecked();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Forgot password?' })).toBeInTheDocument();
  });

  it('shows every checkout message and moves focus to the first', async () => {
    const { user } = await open(stepThree);
    await user.click(await screen.findByRole('button', { name: 'Create order' }));
    expect(screen.getByText('Please provide valid Name')).toBeInTheDocument();
    expect(screen.getByText('Invalid email address.')).toBeInTheDocument();
    expect(screen.getByText('You may have entered invalid phone number. Kindly consider revising.')).toBeInTheDocument();
    expect(screen.getByText('Please accept the Terms of Use, Privacy Cookies Policy')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveFocus());
    await user.click(screen.getByRole('radio', { name: 'I have an account' }));
    await user.click(screen.getByRole('button', { name: 'Create order' }));
    expect(screen.getByText('The "Password" field is mandatory.')).toBeInTheDocument();
  });

  it('formats a US phone as (XXX) XXX-XXXX', async () => {
    const { user } = await open(stepThree);
    await user.type(await screen.findByLabelText('Phone'), '2015550123');
    expect(screen.getByLabelText('Phone')).toHaveValue('(201) 555-0123');
  });

  it('lets the area code choose among the countries sharing a dialling code (SPEC §3 "Country table")', async () => {
    const { user } = await open(stepThree);
    const phone = await screen.findByLabelText('Phone');
    const countryIs = (name: string) =>
      expect(screen.getByRole('button', { name: new RegExp(`^Country: ${name} \\+`) })).toBeInTheDocument();
    countryIs('United States');
    await user.type(phone, '4165550123');
    countryIs('Canada');
    expect(phone).toHaveValue('(416) 555-0123');
    await user.clear(phone);
    // A pasted international number chooses its country and keeps the national digits.
    await user.click(phone);
    await user.paste('+1 876 555 0123');
    countryIs('Jamaica');
    expect(phone).toHaveValue('(876) 555-0123');
    await user.clear(phone);
    await user.paste('+7 701 234 5678');
    countryIs('Kazakhstan');
    // Issue 27: a '+' typed is kept, and the digits after it choose the country as they name one.
    await user.clear(phone);
    await user.type(phone, '+');
    expect(phone).toHaveValue('+');
    await user.type(phone, '4');
    expect(phone).toHaveValue('+4');
    countryIs('Kazakhstan');
    await user.type(phone, '4 20 7946 0958');
    countryIs('United Kingdom');
    // The national digits stay (typed without the trunk 0, libphonenumber leaves such numbers unformatted).
    expect((phone as HTMLInputElement).value.replace(/\D/g, '')).toBe('2079460958');
    await user.clear(phone);
    await user.type(phone, '+35');
    expect(phone).toHaveValue('+35');
    await user.type(phone, '3861234567');
    countryIs('Ireland');
    expect((phone as HTMLInputElement).value.replace(/\D/g, '')).toBe('861234567');
    // Picking a country of one area code (searched by its dialling code or name) starts the number with it.
    await user.click(screen.getByRole('button', { name: /^Country: / }));
    const search = await screen.findByRole('combobox', { name: 'Search countries' });
    await user.type(search, 'bahamas');
    expect(screen.getByRole('option', { name: /Bahamas/ })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /Canada/ })).not.toBeInTheDocument();
    await user.keyboard('{Enter}');
    countryIs('Bahamas');
    expect(phone).toHaveValue('(242)');
  });
});

describe('creation', () => {
  const stepThree = '/order?subject=1&description=Ten%20characters%20at%20least&step=3';

  it('creates with an Idempotency-Key, opens the order page to pay and keeps only the email', async () => {
    signIn();
    const keys: string[] = [];
    server.use(
      http.post('/api/en/sites/categories/1/orders', ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key') ?? '');
        return HttpResponse.json({ id: 77, uid: 'abcdefghijklmnop' });
      }),
      http.get('/api/en/orders/77', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
    );
    const { user, router } = await open(stepThree);
    await user.click(await screen.findByRole('button', { name: 'Create order' }));
    // The express checkout path (ADR 0023): the new order's page opens the payment flow.
    await waitFor(() => expect(currentUrl(router)).toBe('/orderinfo/77/details?pay=1'));
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(stored()).toEqual({ checkout: expect.objectContaining({ email: '', name: '' }) as unknown });
  });

  it("maps a topic error to 'Please provide valid Title', unlocks, and retries with the same key", async () => {
    signIn();
    const keys: string[] = [];
    server.use(
      http.post('/api/en/sites/categories/1/orders', ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key') ?? '');
        return keys.length === 1
          ? HttpResponse.json({ errors: { topic: ['bad'] } }, { status: 422 })
          : HttpResponse.json({ message: 'down' }, { status: 400 });
      }),
    );
    const { user } = await open(stepThree);
    await user.click(await screen.findByRole('button', { name: 'Create order' }));
    expect(await screen.findByText('Please provide valid Title')).toBeInTheDocument();
    const title = await screen.findByLabelText('Title');
    await waitFor(() => expect(title).toHaveFocus());
    await user.click(screen.getByRole('button', { name: /Step 3/ }));
    await user.click(await screen.findByRole('button', { name: 'Create order' }));
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('signs a visitor up with ref_id, then sends them to /dashboard when the order fails', async () => {
    const signUps: unknown[] = [];
    server.use(
      http.post('/api/checkmail', () => HttpResponse.json({ status: 'success' })),
      http.post('/api/en/auth/jwt/sign_up', async ({ request }) => {
        signUps.push(await request.json());
        return HttpResponse.json({ accessToken: 'access-n', refreshToken: 'refresh-n' });
      }),
      http.post('/api/en/sites/categories/1/orders', () => HttpResponse.json({ errors: { paperDetails: ['x'] } }, { status: 422 })),
      http.get('/api/en/sites/categories/1/orders', () => HttpResponse.json({ orders: [], total: 0 })),
    );
    const { user, router } = await open(`${stepThree}&ref_id=55`);
    await user.type(await screen.findByLabelText('Name'), 'Vera Visitor');
    await user.type(screen.getByLabelText('Email'), 'vera@example.com');
    await user.type(screen.getByLabelText('Phone'), '2015550123');
    await user.click(screen.getByLabelText(/I accept the Terms of Use/));
    await user.click(screen.getByRole('button', { name: 'Create order' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/dashboard'));
    expect(signUps[0]).toMatchObject({
      email: 'vera@example.com',
      firstName: 'Vera',
      lastName: 'Visitor',
      phone: '+12015550123',
      ref_id: '55',
    });
    expect(localStorage.getItem('refreshToken')).toBe('refresh-n');
  });
});

/** An XMLHttpRequest that reports half, then all, of the upload and answers 201 (happy-dom has no upload events). */
class FakeUpload {
  static sent: { url: string; auth: string | null; file: File | null }[] = [];
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  status = 0;
  responseText = '';
  private url = '';
  private auth: string | null = null;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    if (name === 'Authorization') this.auth = value;
  }
  send(form: FormData) {
    const file = form.get('file');
    FakeUpload.sent.push({ url: this.url, auth: this.auth, file: file instanceof File ? file : null });
    setTimeout(() => this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 }), 10);
    setTimeout(() => {
      this.status = 201;
      this.responseText = JSON.stringify({ id: 900, name: 'new.pdf', typeName: 'pdf', size: 5, remote: true });
      this.onload?.();
    }, 1500);
  }
}

describe('editing', () => {
  it("loads the unpaid order, PUTs it, DELETEs a removed file and POSTs a new one with progress: 'Your order is now being updated'", async () => {
    signIn();
    FakeUpload.sent = [];
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    const calls: string[] = [];
    server.use(
      http.get('/api/en/orders/42/customers/files', () =>
        HttpResponse.json([{ id: 5, name: 'old.docx', typeName: 'docx', size: 2048, remote: true }]),
      ),
      http.put('/api/en/sites/categories/1/orders/42', async ({ request }) => {
        const body = (await request.json()) as { pages: number };
        calls.push(`PUT pages=${body.pages}`);
        return HttpResponse.json({ id: 42, uid: 'abcdefghijklmnop' });
      }),
      http.delete('/api/en/orders/files/:id', ({ params }) => {
        calls.push(`DELETE ${String(params.id)}`);
        return HttpResponse.json({});
      }),
    );
    const { user, router } = await open('/order?editingOrderId=42&subject=1&description=Ten%20characters%20at%20least&step=2');
    expect(screen.getByRole('heading', { level: 1, name: 'Edit order #42' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Attached files' });
    expect(within(list).getByText('old.docx')).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Remove old.docx' }));
    fireEvent.change(screen.getByLabelText('Attach files'), { target: { files: [new File(['hello'], 'new.pdf')] } });
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Attached files' })).getByText('new.pdf')).toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Update order' }));
    expect(await screen.findByText('Your order is now being updated')).toBeInTheDocument();
    const progress = await screen.findByRole('progressbar', { name: 'Uploading new.pdf' });
    await waitFor(() => expect(progress).toHaveAttribute('value', '50'));
    await waitFor(() => expect(currentUrl(router)).toBe('/orderinfo/42/details'));
    expect(calls[0]).toMatch(/^PUT pages=\d+$/);
    expect(calls[1]).toBe('DELETE 5');
    expect(FakeUpload.sent).toEqual([
      { url: '/api/en/orders/42/customers/files', auth: 'Bearer access-1', file: expect.any(File) as unknown },
    ]);
    vi.unstubAllGlobals();
  });
});

describe('cloning', () => {
  it('prefills a new order from an old one with ?cloningOrder=', async () => {
    signIn();
    await open('/order?cloningOrder=42&step=2');
    expect(screen.getByRole('heading', { level: 1, name: 'New Order' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Title')).toHaveValue('Microplastics in Freshwater Ecosystems');
    expect(screen.getByLabelText('Paper details')).toHaveValue('Compare three sources of microplastics.');
  });
});
