import { useId, type ReactNode } from 'react';
import { useDropzone } from 'react-dropzone';
import { CloudUpload } from 'lucide';
import { announce } from '@/lib/announce';
import { Icon } from './icon';
import { buttonClass } from './button';

/** The file dialog's `accept` of a domain extension list (`tar-gz` is the `.tar.gz` ending). */
const acceptOf = (extensions: readonly string[]): string => extensions.map((ext) => (ext === 'tar-gz' ? '.tar.gz' : `.${ext}`)).join(',');

const addedText = (count: number): string => (count === 1 ? '1 file added' : `${count} files added`);

interface CommonProps {
  /** the extensions the file dialog offers; the domain's rules still decide on every file (the caller's `onFiles`) */
  extensions: readonly string[];
  /**
   * Every file picked or dropped, none filtered out here: the caller checks each by the domain's rules
   * (SPEC §5's texts) and answers how many it took, which the app's live region says.
   */
  onFiles: (files: File[]) => number;
  disabled?: boolean | undefined;
  /** the hidden input's accessible name (tests and assistive technology find the input by it) */
  inputLabel: string;
  inputTestId?: string | undefined;
}

interface PanelProps extends CommonProps {
  variant: 'panel';
  /** the Browse button's text: the keyboard's way in */
  browseLabel: string;
  /** what may be dropped (limits), under the button */
  hint?: string | undefined;
  /** the Browse button's ref (the wizard focuses it on a files error) */
  buttonRef?: ((element: HTMLButtonElement | null) => void) | undefined;
  describedBy?: string | undefined;
  invalid?: boolean | undefined;
}

interface OverlayProps extends CommonProps {
  variant: 'overlay';
  /** what a drag over the area says */
  dropLabel: string;
  className?: string | undefined;
  /** the area's content; `open` opens the file dialog (its own Browse control) */
  children: (open: () => void) => ReactNode;
}

/**
 * ADR 0096: the one file drop zone (react-dropzone), of the wizard's file step, the order's Files tab and
 * the chat composer. Dropping and the file dialog lead to the same `onFiles`; the zone filters nothing
 * (the domain's rules and SPEC's texts are the caller's, as before). Keyboard: the zone is no tab stop of
 * its own, its Browse button is (a `panel`'s, or the one the `overlay`'s content renders with `open`).
 * A panel is a named group saying it takes drops; a drag over it is shown; the count taken is announced.
 */
export function FileDropZone(props: PanelProps | OverlayProps) {
  const { extensions, onFiles, disabled = false, inputLabel, inputTestId } = props;
  const id = useId();
  const { getRootProps, getInputProps, open, isDragActive } = useDropzone({
    // The Browse button opens the dialog; a click or a key on the area itself does nothing (the composer's
    // text area is in it), so the area adds no tab stop.
    noClick: true,
    noKeyboard: true,
    disabled,
    multiple: true,
    onDrop: (accepted, rejected) => {
      const files = [...accepted, ...rejected.map((rejection) => rejection.file)];
      if (files.length === 0) return;
      announce(addedText(onFiles(files)));
    },
  });
  const input = (
    <input
      {...getInputProps({
        accept: acceptOf(extensions),
        'aria-label': inputLabel,
        'aria-hidden': true,
        // In the zone's corner, out of the layout; never a tab stop (tabIndex -1 from react-dropzone).
        style: undefined,
        className: 'sr-only',
      })}
      data-testid={inputTestId}
    />
  );
  // While files are dragged over the zone, it says what a drop does (the zone keeps its name).
  const dropping = (text: string) =>
    isDragActive && (
      <div className="pointer-events-none absolute inset-0 z-10 flex items-center justify-center rounded-lg border-2 border-dashed border-primary bg-white/95 ring-2 ring-primary">
        <p className="flex items-center gap-2 font-medium text-slate-900">
          <Icon icon={CloudUpload} className="size-5" />
          {text}
        </p>
      </div>
    );

  if (props.variant === 'overlay') {
    const { dropLabel, className = '', children } = props;
    return (
      <div {...getRootProps({ className: `relative ${className}` })}>
        {input}
        {children(open)}
        {dropping(dropLabel)}
      </div>
    );
  }

  const { browseLabel, hint, buttonRef, describedBy, invalid = false } = props;
  return (
    <div
      {...getRootProps({
        role: 'group',
        'aria-labelledby': `${id}-text`,
        'aria-describedby': hint ? `${id}-hint` : undefined,
        className: `relative flex flex-col items-center gap-2 rounded-lg border-2 border-dashed px-4 py-5 text-center ${
          invalid ? 'border-red-600' : 'border-slate-300'
        } ${disabled ? 'opacity-60' : ''}`,
      })}
    >
      {input}
      <Icon icon={CloudUpload} className="size-6 text-slate-600" />
      <p id={`${id}-text`} className="text-sm text-slate-800">
        Drag and drop files here, or
      </p>
      <button
        ref={buttonRef}
        type="button"
        className={buttonClass('secondary')}
        disabled={disabled}
        aria-describedby={describedBy}
        onClick={open}
      >
        {browseLabel}
      </button>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-700">
          {hint}
        </p>
      )}
      {dropping('Drop the files to add them')}
    </div>
  );
}
