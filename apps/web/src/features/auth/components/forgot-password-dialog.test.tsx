import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';

const answerForgot = (answer: () => Response) => {
  const sent: string[] = [];
  server.use(
    http.post('/forgotpassword', async ({ request }) => {
      sent.push(await request.text());
      return answer();
    }),
  );
  return sent;
};

const openDialog = async () => {
  const app = renderApp('/login');
  await app.user.click(await screen.findByRole('button', { name: 'Forgot password?' }));
  const dialog = await screen.findByRole('dialog', { name: 'Forgot password' });
  return { ...app, dialog };
};

const submit = async (app: Awaited<ReturnType<typeof openDialog>>, email: string) => {
  await app.user.type(within(app.dialog).getByLabelText('Email'), email);
  await app.user.click(within(app.dialog).getByRole('button', { name: 'Send new password' }));
};

describe('forgot password dialog', () => {
  it("answers 0 with 'Check your email for a new password.' and sends the form field mail", async () => {
    const sent = answerForgot(() => HttpResponse.json(0));
    const app = await openDialog();
    await submit(app, 'demo@example.com');

    expect(await within(app.dialog).findByText('Check your email for a new password.')).toBeInTheDocument();
    expect(new URLSearchParams(sent[0]).get('mail')).toBe('demo@example.com');
  });

  it('answers 1 with "Email doesn\'t exist on site"', async () => {
    answerForgot(() => HttpResponse.json(1));
    const app = await openDialog();
    await submit(app, 'nobody@example.com');

    expect(await within(app.dialog).findByRole('alert')).toHaveTextContent("Email doesn't exist on site");
  });

  it('answers a failure with the contact-us message', async () => {
    answerForgot(() => HttpResponse.json({ message: 'boom' }, { status: 500 }));
    const app = await openDialog();
    await submit(app, 'demo@example.com');

    expect(await within(app.dialog).findByRole('alert')).toHaveTextContent(
      'An error occurred while checking your email. Please contact us via email or live chat for resolution.',
    );
  });

  it("warns 'An email field is mandatory.' for an invalid email", async () => {
    const sent = answerForgot(() => HttpResponse.json(0));
    const app = await openDialog();
    await submit(app, 'nope');

    expect(await within(app.dialog).findByText('An email field is mandatory.')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('closes on Escape and gives the focus back to its button', async () => {
    const app = await openDialog();
    await app.user.keyboard('{Escape}');

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Forgot password?' })).toHaveFocus();
  });
});
