import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CHAT_MESSAGE, MESSAGE_FILES_MAX } from '@app/domain/chat/rules';
import { FILE_MESSAGE } from '@app/domain/files/rules';
import { Composer } from './composer';

const dropOf = (files: File[]) => ({
  dataTransfer: { files, items: files.map((file) => ({ kind: 'file', type: file.type, getAsFile: () => file })), types: ['Files'] },
});

const renderComposer = () => {
  const onSend = vi.fn();
  render(<Composer counterpart="your writer" onSend={onSend} onTyping={() => undefined} />);
  return { onSend, message: screen.getByRole('textbox', { name: 'Message to your writer' }) };
};

describe('Composer: files dropped on it (ADR 0096)', () => {
  it('attaches a dropped file to the message, and sends it with the text', async () => {
    const user = userEvent.setup();
    const { onSend, message } = renderComposer();
    const file = new File(['%PDF'], 'sources.pdf', { type: 'application/pdf' });
    fireEvent.dragEnter(message, dropOf([file]));
    expect(await screen.findByText('Drop files to attach them')).toBeInTheDocument();
    fireEvent.drop(message, dropOf([file]));
    const toSend = await screen.findByRole('list', { name: 'Files to send' });
    expect(within(toSend).getByText('sources.pdf')).toBeInTheDocument();
    expect(screen.queryByText('Drop files to attach them')).not.toBeInTheDocument();
    await user.type(message, 'Here are my sources');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith({ body: 'Here are my sources', files: [file] });
  });

  it("refuses a dropped file by the messenger's rules, with SPEC's texts", async () => {
    renderComposer();
    const big = new File(['x'], 'scan.pdf', { type: 'application/pdf' });
    Object.defineProperty(big, 'size', { value: 15 * 1024 * 1024 + 1 });
    fireEvent.drop(screen.getByRole('textbox'), dropOf([big, new File(['MZ'], 'tool.exe')]));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`scan.pdf: ${FILE_MESSAGE.messengerTooLarge}`);
    expect(alert).toHaveTextContent('tool.exe: Invalid file format');
    expect(screen.queryByRole('list', { name: 'Files to send' })).not.toBeInTheDocument();
  });

  it('keeps the attachment count limit for drops', async () => {
    renderComposer();
    const many = Array.from({ length: MESSAGE_FILES_MAX + 1 }, (_, i) => new File(['%PDF'], `part-${i}.pdf`, { type: 'application/pdf' }));
    fireEvent.drop(screen.getByRole('textbox'), dropOf(many));
    expect(await screen.findByRole('alert')).toHaveTextContent(CHAT_MESSAGE.tooManyFiles);
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Files to send' })).getAllByRole('listitem')).toHaveLength(MESSAGE_FILES_MAX),
    );
  });

  it('still attaches through the paperclip button and the file dialog', async () => {
    const user = userEvent.setup();
    renderComposer();
    const input = screen.getByLabelText('Files for the message') as HTMLInputElement;
    const opened = vi.spyOn(input, 'click');
    await user.click(screen.getByRole('button', { name: 'Attach files (up to 15 MB each)' }));
    expect(opened).toHaveBeenCalledTimes(1);
    await user.upload(input, new File(['a'], 'notes.docx'));
    expect(within(await screen.findByRole('list', { name: 'Files to send' })).getByText('notes.docx')).toBeInTheDocument();
  });
});
