import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FILE_MESSAGE, ORDER_FILE_EXTENSIONS, validateOrderFile } from '@app/domain/files/rules';
import { LiveRegion } from '@/components/layout/live-region';
import { FileDropZone } from './file-drop-zone';

/** A drop's DataTransfer as a browser hands it over (files and their items). */
const dataTransferOf = (files: File[]) => ({
  dataTransfer: {
    files,
    items: files.map((file) => ({ kind: 'file', type: file.type, getAsFile: () => file })),
    types: ['Files'],
  },
});

/** A caller like the wizard's: the domain's rules decide, the refused files are listed with SPEC's texts. */
function OrderFiles({ disabled = false }: { disabled?: boolean }) {
  const [taken, setTaken] = useState<string[]>([]);
  const [refused, setRefused] = useState<string[]>([]);
  return (
    <>
      <LiveRegion />
      <FileDropZone
        variant="panel"
        extensions={ORDER_FILE_EXTENSIONS}
        disabled={disabled}
        inputLabel="Attach files"
        browseLabel="Attach files"
        hint="Up to 100MB each"
        inputTestId="zone-input"
        onFiles={(files) => {
          const ok = files.filter((file) => validateOrderFile(file) === null);
          setTaken((list) => [...list, ...ok.map((file) => file.name)]);
          setRefused(files.flatMap((file) => validateOrderFile(file) ?? []).map(String));
          return ok.length;
        }}
      />
      <ul aria-label="Taken">
        {taken.map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ul>
      <ul aria-label="Refused">
        {refused.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
    </>
  );
}

const zone = () => screen.getByRole('group', { name: 'Drag and drop files here, or' });

describe('FileDropZone (ADR 0096)', () => {
  it('is a named group with its limits, a Browse button, and an input offering the domain extensions', () => {
    render(<OrderFiles />);
    expect(zone()).toHaveAccessibleDescription('Up to 100MB each');
    expect(within(zone()).getByRole('button', { name: 'Attach files' })).toBeEnabled();
    const input = screen.getByTestId('zone-input');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('multiple');
    expect(input.getAttribute('accept')).toContain('.pdf');
    expect(input.getAttribute('accept')).toContain('.tar.gz');
    // The zone itself is no tab stop; the button is.
    expect(zone()).not.toHaveAttribute('tabindex');
    expect(input).toHaveAttribute('tabindex', '-1');
  });

  it('takes dropped files through the same rules: a good one is added, a bad one refused with SPEC text, the count said', async () => {
    render(<OrderFiles />);
    const good = new File(['%PDF-1.7'], 'brief.pdf', { type: 'application/pdf' });
    const bad = new File(['MZ'], 'setup.exe', { type: 'application/octet-stream' });
    const target = zone();
    fireEvent.dragEnter(target, dataTransferOf([good, bad]));
    expect(await screen.findByText('Drop the files to add them')).toBeInTheDocument();
    fireEvent.drop(target, dataTransferOf([good, bad]));
    const taken = screen.getByRole('list', { name: 'Taken' });
    expect(await within(taken).findByText('brief.pdf')).toBeInTheDocument();
    expect(within(taken).queryByText('setup.exe')).not.toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Refused' })).getByText(FILE_MESSAGE.invalidFormat(ORDER_FILE_EXTENSIONS)),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('live-region')).toHaveTextContent('1 file added'));
    expect(screen.getByText('Drag and drop files here, or')).toBeInTheDocument();
  });

  it('refuses a dropped file over 100MB with SPEC text', async () => {
    render(<OrderFiles />);
    const huge = new File(['x'], 'huge.pdf', { type: 'application/pdf' });
    Object.defineProperty(huge, 'size', { value: 104_857_601 });
    fireEvent.drop(zone(), dataTransferOf([huge]));
    expect(await screen.findByText('Maximum file size is 100MB')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('live-region')).toHaveTextContent('0 files added'));
  });

  it('opens the file dialog from the keyboard and takes the picked files the same way', async () => {
    const user = userEvent.setup();
    render(<OrderFiles />);
    const input = screen.getByTestId('zone-input') as HTMLInputElement;
    const opened = vi.spyOn(input, 'click');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Attach files' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(opened).toHaveBeenCalledTimes(1);
    await user.upload(input, [new File(['a'], 'notes.docx'), new File(['b'], 'table.xlsx')]);
    const taken = screen.getByRole('list', { name: 'Taken' });
    expect(await within(taken).findByText('notes.docx')).toBeInTheDocument();
    expect(within(taken).getByText('table.xlsx')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('live-region')).toHaveTextContent('2 files added'));
  });

  it('takes nothing while disabled (the wizard is sending)', async () => {
    render(<OrderFiles disabled />);
    expect(screen.getByRole('button', { name: 'Attach files' })).toBeDisabled();
    fireEvent.drop(zone(), dataTransferOf([new File(['%PDF'], 'late.pdf', { type: 'application/pdf' })]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(screen.getByRole('list', { name: 'Taken' })).queryByText('late.pdf')).not.toBeInTheDocument();
  });

  it('as an overlay, wraps its content, shows the drop text while dragging, and hands `open` to the content', async () => {
    const onFiles = vi.fn((files: File[]) => files.length);
    render(
      <FileDropZone
        variant="overlay"
        extensions={['pdf']}
        onFiles={onFiles}
        inputLabel="Files for the message"
        dropLabel="Drop files to attach them"
      >
        {(open) => (
          <div>
            <textarea aria-label="Message" />
            <button type="button" onClick={open}>
              Attach
            </button>
          </div>
        )}
      </FileDropZone>,
    );
    const area = screen.getByRole('textbox', { name: 'Message' });
    const file = new File(['%PDF'], 'a.pdf', { type: 'application/pdf' });
    fireEvent.dragEnter(area, dataTransferOf([file]));
    expect(await screen.findByText('Drop files to attach them')).toBeInTheDocument();
    fireEvent.drop(area, dataTransferOf([file]));
    await waitFor(() => expect(onFiles).toHaveBeenCalledWith([file]));
    expect(screen.queryByText('Drop files to attach them')).not.toBeInTheDocument();
    const input = screen.getByLabelText('Files for the message');
    const opened = vi.spyOn(input, 'click');
    fireEvent.click(screen.getByRole('button', { name: 'Attach' }));
    expect(opened).toHaveBeenCalledTimes(1);
  });
});
