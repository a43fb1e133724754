import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { CUSTOMER_MESSAGE } from '@app/domain/customer';
import { apiFetch } from '@/lib/api-client';
import { server } from '@/testing/msw-server';
import { customerFixture, signIn } from '@/testing/fixtures';
import { currentUrl, renderApp } from '@/testing/render-app';
import { expectNoAxeViolations } from '@/testing/axe';

const toastText = async () => {
  const notifications = await screen.findByRole('region', { name: 'Notifications' });
  return within(notifications).findByRole('status');
};

const openPrivacy = async (tab?: string) => {
  const app = renderApp('/profile');
  await app.user.click(await screen.findByRole('button', { name: 'Privacy settings' }));
  const dialog = await screen.findByRole('dialog', { name: 'Privacy' });
  if (tab) await app.user.click(within(dialog).getByRole('tab', { name: tab }));
  return { ...app, dialog };
};

describe('password change', () => {
  it('shows the refusal of a wrong current password on the field and SPEC failure text', async () => {
    signIn();
    server.use(
      http.put('/api/en/customers/customer/password', () =>
        HttpResponse.json(
          { message: 'Something went wrong', errors: { currentPassword: ['The current password is not correct'] } },
          { status: 400 },
        ),
      ),
    );
    const { user } = renderApp('/profile');
    await user.type(await screen.findByLabelText('Current password'), 'wrong-one');
    await user.type(screen.getByLabelText('New password'), 'new-secret-2');
    await user.type(screen.getByLabelText('Repeat new password'), 'new-secret-2');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The current password is not correct')).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
    expect(await toastText()).toHaveTextContent('Something went wrong');
  });

  it('refuses mismatched new passwords before calling, then changes it', async () => {
    signIn();
    const bodies: unknown[] = [];
    server.use(
      http.put('/api/en/customers/customer/password', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ message: 'ok' });
      }),
    );
    const { user } = renderApp('/profile');
    await user.type(await screen.findByLabelText('Current password'), 'secret-pass-1');
    await user.type(screen.getByLabelText('New password'), 'new-secret-2');
    await user.type(screen.getByLabelText('Repeat new password'), 'new-secret-3');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The passwords do not match')).toBeInTheDocument();
    expect(bodies).toEqual([]);
    await user.clear(screen.getByLabelText('Repeat new password'));
    await user.type(screen.getByLabelText('Repeat new password'), 'new-secret-2');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await toastText()).toHaveTextContent('Your other sessions were signed out');
    expect(bodies).toEqual([{ currentPassword: 'secret-pass-1', newPassword: 'new-secret-2' }]);
  });
});

describe('signed-in devices', () => {
  it('lists the devices, marks this one, and signs another out', async () => {
    signIn();
    const ended: string[] = [];
    server.use(
      http.delete('/api/en/customers/customer/sessions/:id', ({ params }) => {
        ended.push(String(params.id));
        return HttpResponse.json({ message: 'The session has been signed out.' });
      }),
    );
    const { user } = renderApp('/profile');
    const list = await screen.findByRole('list', { name: 'Signed-in devices' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Chrome on Windows');
    expect(items[0]).toHaveTextContent('This device');
    expect(within(items[0] as HTMLElement).queryByRole('button')).not.toBeInTheDocument();
    expect(items[1]).toHaveTextContent('Safari on iOS');
    expect(items[1]).toHaveTextContent('198.51.100.7');
    await user.click(within(items[1] as HTMLElement).getByRole('button', { name: /^Sign out Safari on iOS/ }));
    expect(await toastText()).toHaveTextContent('The session has been signed out.');
    expect(ended).toEqual(['family-phone']);
  });

  it('signs every other device out at once', async () => {
    signIn();
    let calls = 0;
    server.use(
      http.delete('/api/en/customers/customer/sessions', () => {
        calls += 1;
        return HttpResponse.json({ message: 'All other sessions have been signed out.', ended: 1 });
      }),
    );
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('button', { name: 'Sign out all other devices' }));
    expect(await toastText()).toHaveTextContent('All other sessions have been signed out.');
    expect(calls).toBe(1);
  });
});

describe('the Facebook Messenger opt-in', () => {
  it('saves on the checkbox event with the stored profile', async () => {
    signIn();
    let sent: unknown;
    server.use(
      http.put('/api/en/customers/customer', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(
          customerFixture({
            enabledFacebookMessenger: true,
            facebookData: { fbMessengerAppId: null, fbPageId: null, ref: 'profile', userRef: 'customer-7', isChecked: true },
          }),
        );
      }),
    );
    const { user } = renderApp('/profile');
    const box = await screen.findByLabelText('Send order updates to me on Facebook Messenger');
    expect(box).not.toBeChecked();
    await user.click(box);
    await waitFor(() => expect(box).toBeChecked());
    expect(sent).toMatchObject({ enabledFacebookMessenger: true, firstName: 'Dana', phone: '15550100' });
  });

  it('shows the click from the click on, never unticked while the save settles; a refused save puts it back', async () => {
    signIn();
    let refuse = false;
    let sent: unknown;
    server.use(
      http.put('/api/en/customers/customer', async ({ request }) => {
        sent = await request.json();
        // Answered after the click has returned, so the save settles while the box is watched.
        await delay(30);
        return refuse
          ? HttpResponse.json({ message: 'down' }, { status: 500 })
          : HttpResponse.json(
              customerFixture({
                enabledFacebookMessenger: true,
                facebookData: { fbMessengerAppId: null, fbPageId: null, ref: 'profile', userRef: 'customer-7', isChecked: true },
              }),
            );
      }),
    );
    const { user } = renderApp('/profile');
    const box = await screen.findByLabelText<HTMLInputElement>('Send order updates to me on Facebook Messenger');
    // Every state the box is in between the click and the saved notice (the profile test's flake: unticked
    // for a moment between the save settling and the stored profile rendering).
    const seen: boolean[] = [];
    await user.click(box);
    const watch = setInterval(() => seen.push(box.checked), 0);
    expect(box).toBeChecked();
    expect(await toastText()).toHaveTextContent('Your personal information has been successfully updated.');
    await waitFor(() => expect(seen.length).toBeGreaterThan(3));
    clearInterval(watch);
    expect(seen.every(Boolean)).toBe(true);
    expect(box).toBeChecked();

    refuse = true;
    await user.click(box);
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(sent).toMatchObject({ enabledFacebookMessenger: false });
    await waitFor(() => expect(box).toBeChecked());
  });
});

describe('privacy modal', () => {
  it('saves the consent preferences as six booleans for this customer', async () => {
    signIn();
    let sent: { path: string; body: unknown } | undefined;
    server.use(
      http.put('/api/en/customers/:id/privacy', async ({ request, params }) => {
        sent = { path: String(params.id), body: await request.json() };
        return HttpResponse.json(customerFixture({ enabledLocationUsage: true }));
      }),
    );
    const { user, dialog } = await openPrivacy();
    await user.click(within(dialog).getByLabelText('Location'));
    await user.click(within(dialog).getByRole('button', { name: 'Save preferences' }));
    expect(await toastText()).toHaveTextContent('Your preferences have been saved.');
    expect(sent).toEqual({
      path: '7',
      body: {
        cookies_usages: true,
        personal_data: true,
        technical_data: true,
        location_usages: true,
        information_sharing: false,
        email_subscription: false,
      },
    });
  });

  it("shows SPEC's privacy failure text", async () => {
    signIn();
    server.use(http.put('/api/en/customers/:id/privacy', () => HttpResponse.json({ message: 'x' }, { status: 500 })));
    const { user, dialog } = await openPrivacy();
    await user.click(within(dialog).getByLabelText('Email subscription'));
    await user.click(within(dialog).getByRole('button', { name: 'Save preferences' }));
    expect(await screen.findByText('Problem occured while setting your preferences')).toBeInTheDocument();
  });

  it('downloads the personal-data report of this customer', async () => {
    signIn();
    let requested = '';
    server.use(
      http.get('/api/en/customers/customer/gdpr', ({ request }) => {
        requested = new URL(request.url).search;
        return HttpResponse.json({ profile: {} }, { headers: { 'Content-Disposition': 'attachment; filename="personal-data-7.json"' } });
      }),
    );
    const createObjectURL = vi.fn(() => 'blob:report');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { user, dialog } = await openPrivacy('Personal data');
    await user.click(within(dialog).getByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(saved).toEqual(['personal-data-7.json']));
    expect(requested).toBe('?id=7');
    click.mockRestore();
  });

  it("refuses the deletion with 'Email is not confirmed' and stays", async () => {
    signIn();
    server.use(
      http.put('/api/en/customers/customer/deactivate', () => HttpResponse.json({ message: 'Email is not confirmed' }, { status: 400 })),
    );
    const { user, dialog, router } = await openPrivacy('Settings');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await user.type(within(dialog).getByLabelText('Your password'), 'secret-pass-1');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete my account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Email is not confirmed');
    expect(currentUrl(router)).toBe('/profile');
  });

  it("shows 'Error' for any other deletion failure", async () => {
    signIn();
    server.use(http.put('/api/en/customers/customer/deactivate', () => HttpResponse.json({ message: 'boom' }, { status: 500 })));
    const { user, dialog } = await openPrivacy('Settings');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await user.type(within(dialog).getByLabelText('Your password'), 'secret-pass-1');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete my account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Error$/);
  });

  it('deletes the account with the password, says so, and moves to /logout after 3 s', async () => {
    signIn();
    const bodies: unknown[] = [];
    server.use(
      http.put('/api/en/customers/customer/deactivate', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ message: 'Your account has been successfully deleted.' });
      }),
    );
    const { user, dialog, router } = await openPrivacy('Settings');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await user.type(within(dialog).getByLabelText('Your password'), 'secret-pass-1');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete my account' }));
    expect(await toastText()).toHaveTextContent('Your account has been successfully deleted.');
    const deletedAt = Date.now();
    expect(bodies).toEqual([{ password: 'secret-pass-1' }]);
    // The deletion ended the session (ADR 0069: this tab's chat socket is closed, its renewal refused):
    // that does not send the customer to /login before the 3 s are over.
    server.use(
      http.get('/api/en/customers/customer', () => HttpResponse.json({ message: 'gone' }, { status: 401 })),
      http.put('/api/en/auth/jwt/refresh', () => HttpResponse.json({ message: 'revoked' }, { status: 401 })),
    );
    await apiFetch('/api/en/customers/customer').catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(currentUrl(router)).toBe('/profile');
    await waitFor(() => expect(currentUrl(router)).toBe('/logout'), { timeout: 5000 });
    expect(Date.now() - deletedAt).toBeGreaterThanOrEqual(2500);
  });
});

describe('ADR 0070: the deletion asks for a proof', () => {
  it('focuses the password field when the confirmation opens, and the button again when it is left', async () => {
    signIn();
    const { user, dialog } = await openPrivacy('Settings');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Your password')).toHaveFocus());
    expect(within(dialog).getByLabelText('Your password')).toHaveAttribute('type', 'password');
    expect(within(dialog).getByLabelText('Your password')).toHaveAttribute('autocomplete', 'current-password');
    await user.click(within(dialog).getByRole('button', { name: 'Keep my account' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Delete account' })).toHaveFocus());
  });

  it('asks for the password before calling, and shows a wrong one on the field, focused, without signing out', async () => {
    signIn();
    let calls = 0;
    server.use(
      http.put('/api/en/customers/customer/deactivate', () => {
        calls += 1;
        return HttpResponse.json(
          { message: 'The password is not correct', errors: { password: ['The password is not correct'] } },
          { status: 400 },
        );
      }),
    );
    const { user, dialog, router } = await openPrivacy('Settings');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete my account' }));
    expect(await within(dialog).findByText('Enter your password to delete your account')).toBeInTheDocument();
    expect(calls).toBe(0);
    const field = within(dialog).getByLabelText('Your password');
    await user.type(field, 'not-mine');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete my account' }));
    expect(await within(dialog).findByText('The password is not correct')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(/The password is not correct/);
    await waitFor(() => expect(field).toHaveFocus());
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(calls).toBe(1);
    expect(currentUrl(router)).toBe('/profile');
  });

  it('an account without a password is told a link is mailed, sends no password, and stays signed in', async () => {
    signIn();
    const bodies: unknown[] = [];
    server.use(
      http.get('/api/en/customers/customer', () => HttpResponse.json(customerFixture({ signInByLinkOnly: true }))),
      http.put('/api/en/customers/customer/deactivate', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ message: CUSTOMER_MESSAGE.deletionLinkSent, confirmByEmail: true }, { status: 202 });
      }),
    );
    const { user, dialog, router } = await openPrivacy('Settings');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(within(dialog).queryByLabelText('Your password')).not.toBeInTheDocument();
    expect(within(dialog).getByText(/we will email you a link/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Email me the link' }));
    const notice = await within(dialog).findByText(CUSTOMER_MESSAGE.deletionLinkSent);
    expect(notice.closest('[role="status"]')).not.toBeNull();
    await waitFor(() => expect(notice.closest('[tabindex="-1"]')).toHaveFocus());
    expect(bodies).toEqual([{}]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(currentUrl(router)).toBe('/profile');
  });

  it('/profile?deleteAccount= deletes with the mailed token, says so, cleans the address and moves to /logout', async () => {
    signIn();
    const tokens: unknown[] = [];
    server.use(
      http.put('/api/en/customers/customer/deactivate/confirm', async ({ request }) => {
        tokens.push(await request.json());
        return HttpResponse.json({ message: 'Your account has been successfully deleted.' });
      }),
    );
    const { router } = renderApp('/profile?deleteAccount=mailed-token-1');
    expect(await toastText()).toHaveTextContent('Your account has been successfully deleted.');
    expect(tokens).toEqual([{ token: 'mailed-token-1' }]);
    expect(currentUrl(router)).toBe('/profile');
    await waitFor(() => expect(currentUrl(router)).toBe('/logout'), { timeout: 5000 });
  });

  it('/profile?deleteAccount= with a used or foreign link says so and stays', async () => {
    signIn();
    server.use(
      http.put('/api/en/customers/customer/deactivate/confirm', () =>
        HttpResponse.json({ message: CUSTOMER_MESSAGE.deletionLinkInvalid }, { status: 400 }),
      ),
    );
    const { router } = renderApp('/profile?deleteAccount=used-token');
    const notifications = await screen.findByRole('region', { name: 'Notifications' });
    expect(await within(notifications).findByText(CUSTOMER_MESSAGE.deletionLinkInvalid)).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(currentUrl(router)).toBe('/profile');
  });
});

describe('consent history in the privacy modal (issue 27, ADR 0097)', { timeout: 20_000 }, () => {
  it('lists each change with its date, the flag and old → new, and refreshes after a save', async () => {
    signIn();
    let entries = [
      { consent: 'cookies_usages', previous: true, granted: false, date: '2030-01-03T10:00:00.000Z' },
      { consent: 'location_usages', previous: false, granted: true, date: '2030-01-02T10:00:00.000Z' },
    ];
    server.use(
      http.get('/api/en/customers/customer/consent-history', () => HttpResponse.json({ entries, total: 120 })),
      http.put('/api/en/customers/:id/privacy', () => {
        entries = [{ consent: 'email_subscription', previous: false, granted: true, date: '2030-01-04T10:00:00.000Z' }, ...entries];
        return HttpResponse.json(customerFixture({ enabledEmailSubscription: true }));
      }),
    );
    const { dialog, user } = await openPrivacy('Consent preferences');
    const list = await within(dialog).findByRole('list', { name: 'Consent history' });
    const rows = within(list).getAllByTestId('consent-change');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(/Cookies\s*On\s*→?\s*to\s*Off/);
    expect(rows[1]).toHaveTextContent('Location');
    expect(within(rows[1] as HTMLElement).getByText('On')).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText((_, el) => el?.tagName === 'TIME')).toHaveAttribute(
      'datetime',
      '2030-01-03T10:00:00.000Z',
    );
    expect(within(dialog).getByText('The 2 newest of 120 changes; the personal-data report has them all.')).toBeInTheDocument();
    await expectNoAxeViolations(dialog);

    await user.click(within(dialog).getByLabelText('Email subscription'));
    await user.click(within(dialog).getByRole('button', { name: 'Save preferences' }));
    await waitFor(() => expect(within(list).getAllByTestId('consent-change')).toHaveLength(3));
    expect(within(list).getAllByTestId('consent-change')[0]).toHaveTextContent('Email subscription');
  });

  it('says when there is no change yet', async () => {
    signIn();
    const { dialog } = await openPrivacy('Consent preferences');
    expect(await within(dialog).findByText('No changes yet: your choices are the ones made when you signed up.')).toBeInTheDocument();
  });
});
