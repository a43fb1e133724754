import { useEffect, useRef, useState } from 'react';
import { Download, FileText, ImageOff } from 'lucide';
import { formatFileSize } from '@app/domain/files/rules';
import { isImageAttachment } from '@app/domain/chat/rules';
import type { MessageFile } from '@app/domain/chat';
import { Dialog } from '@/components/ui/dialog';
import { Icon } from '@/components/ui/icon';
import { ProgressBar } from '@/components/ui/progress-bar';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { downloadFile, imageLink } from '@/lib/download';
import { filePercents } from '@/lib/chat/file-progress';

/**
 * A message's files, the customer's and the console's (ADR 0076, 0095): a picture (png, jpg, gif, webp)
 * as a thumbnail that opens large in a dialog, any other file as a download; each with its size (SPEC §5:
 * b, kb or mb). Pictures load through the attachment's own download route (ADR 0080's link), never a
 * public address.
 */

/** True once the element is near the visible part of the page: a thumbnail asks for its link then, not before. */
const useNearView = (): [(element: Element | null) => void, boolean] => {
  // Without IntersectionObserver (an old browser, a test's DOM) every thumbnail is near.
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  const [element, setElement] = useState<Element | null>(null);
  useEffect(() => {
    if (!element || near) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: '200px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, near]);
  return [setElement, near];
};

function DownloadButton({ file, url, label }: { file: MessageFile; url: string; label?: string }) {
  const [percent, setPercent] = useState<number | null>(null);
  return (
    <button
      type="button"
      disabled={percent !== null}
      onClick={() => {
        setPercent(0);
        downloadFile({ id: file.id, name: file.name, size: file.size, url }, setPercent)
          .catch((error: unknown) => toast.error(errorMessage(error)))
          .finally(() => setPercent(null));
      }}
      className="flex max-w-full min-w-0 items-center gap-2 rounded-md border border-current/30 px-2 py-1 text-left text-sm underline-offset-2 hover:underline"
    >
      <Icon icon={label ? Download : FileText} className="size-4 shrink-0" />
      <span className="truncate">{label ?? file.name}</span>
      <span className="shrink-0 text-xs tabular-nums opacity-90">{formatFileSize(file.size)}</span>
      {!label && <Icon icon={Download} className="size-4 shrink-0" />}
      <span className="sr-only">(download)</span>
      {percent !== null && <ProgressBar value={percent} label={`Downloading ${file.name}`} />}
    </button>
  );
}

/** A picture: the thumbnail opens it large; its link is asked once near view, and once more if it fails to load. */
function ImageAttachment({ file, url }: { file: MessageFile; url: string }) {
  const [observe, near] = useNearView();
  const [src, setSrc] = useState<string | null>(null);
  const [broken, setBroken] = useState(false);
  const [open, setOpen] = useState(false);
  const retried = useRef(false);
  const size = formatFileSize(file.size);

  useEffect(() => {
    if (!near) return undefined;
    let live = true;
    imageLink(url)
      .then((link) => live && setSrc(link))
      .catch(() => live && setBroken(true));
    return () => {
      live = false;
    };
  }, [near, url]);

  // A link past its minute (a thumbnail shown again later), or any failure: one fresh link, then the placeholder.
  const onError = () => {
    if (retried.current) {
      setBroken(true);
      return;
    }
    retried.current = true;
    imageLink(url, { fresh: true })
      .then(setSrc)
      .catch(() => setBroken(true));
  };

  return (
    <div ref={observe} className="flex max-w-full flex-col gap-1">
      <button
        type="button"
        onClick={() => setOpen(true)}
        // The visible text first when there is some (axe label-content-name-mismatch).
        aria-label={`${broken ? 'Preview not available. ' : ''}Open picture ${file.name}, ${size}`}
        className="block h-36 w-48 max-w-full overflow-hidden rounded-lg border border-current/20 bg-slate-200 focus-visible:outline-2"
      >
        {src !== null && !broken ? (
          <img src={src} alt="" onError={onError} className="size-full object-cover" />
        ) : broken ? (
          <span className="flex size-full flex-col items-center justify-center gap-1 text-xs text-slate-800">
            <Icon icon={ImageOff} className="size-6" />
            Preview not available
          </span>
        ) : (
          <span className="block size-full animate-pulse" />
        )}
      </button>
      <span className="flex max-w-48 min-w-0 items-center gap-2 text-xs">
        <span className="truncate">{file.name}</span>
        <span className="shrink-0 tabular-nums opacity-90">{size}</span>
      </span>
      <Dialog open={open} onOpenChange={setOpen} title={file.name} size="lightbox">
        <div className="flex min-h-40 items-center justify-center rounded bg-slate-100">
          {src !== null && !broken ? (
            <img src={src} alt={file.name} onError={onError} className="max-h-[70dvh] max-w-full object-contain" />
          ) : (
            <p className="p-6 text-sm text-slate-800">Preview not available. The file can still be downloaded.</p>
          )}
        </div>
        <div className="flex justify-end text-slate-900">
          <DownloadButton file={file} url={url} label="Download" />
        </div>
      </Dialog>
    </div>
  );
}

/** A stored message's files, pictures first as thumbnails. */
export function Attachments({ files, fileUrl }: { files: readonly MessageFile[]; fileUrl: (fileId: number) => string }) {
  if (files.length === 0) return null;
  return (
    <div className="flex max-w-full flex-col gap-2">
      {files.map((file) =>
        isImageAttachment(file.name) ? (
          <ImageAttachment key={file.id} file={file} url={fileUrl(file.id)} />
        ) : (
          <DownloadButton key={file.id} file={file} url={fileUrl(file.id)} />
        ),
      )}
    </div>
  );
}

/** A picture being sent, drawn from the customer's own file (a blob: address, nothing uploaded to show it). */
function LocalPreview({ file }: { file: File }) {
  const image = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const url = URL.createObjectURL(file);
    if (image.current) image.current.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return <img ref={image} alt="" className="h-24 w-32 max-w-full rounded-md bg-slate-200 object-cover" />;
}

/** The files of a message being sent: each with its size and its share of the upload's progress (ADR 0095). */
export function PendingAttachments({ files, percent, sending }: { files: readonly File[]; percent: number | undefined; sending: boolean }) {
  const shares = filePercents(
    files.map((f) => f.size),
    percent ?? 0,
  );
  return (
    <ul className="flex max-w-full flex-col gap-2" aria-label="Files being sent">
      {files.map((file, index) => (
        <li key={`${file.name}-${index}`} className="flex max-w-full min-w-0 flex-col gap-1 text-sm">
          {isImageAttachment(file.name) && <LocalPreview file={file} />}
          <span className="flex min-w-0 items-center gap-2">
            <Icon icon={FileText} className="size-4 shrink-0" />
            <span className="truncate">{file.name}</span>
            <span className="shrink-0 text-xs tabular-nums">{formatFileSize(file.size)}</span>
          </span>
          {sending && percent !== undefined && <ProgressBar value={shares[index] ?? 0} label={`Uploading ${file.name}`} />}
        </li>
      ))}
    </ul>
  );
}
