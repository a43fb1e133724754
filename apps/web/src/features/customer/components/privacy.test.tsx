import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { server } from '@/testing/msw-server';
import { customerFixture, signIn } from '@/testing/fixtures';
import { currentUrl, renderApp } from '@/testing/render-app';

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
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete my account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Email is not confirmed');
    expect(currentUrl(router)).toBe('/profile');
  });

  it("shows 'Error' for any other deletion failure", async () => {
    signIn();
    server.use(http.put('/api/en/customers/customer/deactivate', () => HttpResponse.json({ message: 'boom' }, { status: 500 })));
    const { user, dialog } = await openPrivacy('Settings');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete my account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Error$/);
  });

  it('deletes the account, says so, and moves to /logout after 3 s', async () => {
    signIn();
    server.use(
      http.put('/api/en/customers/customer/deactivate', () =>
        HttpResponse.json({ message: 'Your account has been successfully deleted.' }),
      ),
    );
    const { user, dialog, router } = await openPrivacy('Settings');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete my account' }));
    expect(await toastText()).toHaveTextContent('Your account has been successfully deleted.');
    const deletedAt = Date.now();
    await waitFor(() => expect(currentUrl(router)).toBe('/logout'), { timeout: 5000 });
    expect(Date.now() - deletedAt).toBeGreaterThanOrEqual(2500);
  });
});
