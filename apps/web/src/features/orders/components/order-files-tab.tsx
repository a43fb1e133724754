import { useId, useRef, useState } from 'react';
import { Download, FileText, Trash2 } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { useQueryClient } from '@tanstack/react-query';
import type { OrderFile } from '@app/domain/files';
import { formatFileSize, ORDER_FILE_EXTENSIONS, validateOrderFile } from '@app/domain/files/rules';
import { customerMayRemoveOwnFile } from '@app/domain/order/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FileDropZone } from '@/components/ui/file-drop-zone';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { deleteOrderFile, uploadOrderFile } from '@/lib/resources/order-uploads';
import { orderKeys, type FileSide } from '@/lib/resources/orders';
import { downloadOrderFile, useOrderFiles } from '../api/order-files';

const LIST_FAILED = 'Something went wrong while loading the files';

/** ADR 0096: a file the customer attached, taken back after a confirmation (the server has the last word). */
function RemoveFile({ orderId, file }: { orderId: number; file: OrderFile }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const remove = () => {
    setBusy(true);
    setProblem(null);
    deleteOrderFile(file.id)
      .then(async () => {
        await queryClient.invalidateQueries({ queryKey: orderKeys.files(orderId, 'customers') });
        setOpen(false);
        toast.success(`${file.name} has been removed`);
      })
      .catch(async (error: unknown) => {
        setProblem(errorMessage(error));
        // Gone already, or the order moved on: the list and the order say what is true now.
        await queryClient.invalidateQueries({ queryKey: orderKeys.files(orderId, 'customers') });
      })
      .finally(() => setBusy(false));
  };
  return (
    <>
      <Button
        variant="ghost"
        className="px-3!"
        aria-label={`Remove ${file.name}`}
        onClick={() => {
          setProblem(null);
          setOpen(true);
        }}
      >
        <Icon icon={Trash2} className="size-4" />
        Remove
      </Button>
      <Dialog open={open} onOpenChange={(next) => !busy && setOpen(next)} title="Remove this file?">
        <p className="break-all text-slate-800">{file.name} will be removed from the order. This cannot be undone.</p>
        {problem !== null && <Alert tone="error">{problem}</Alert>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" disabled={busy} onClick={() => setOpen(false)}>
            Keep the file
          </Button>
          <Button busy={busy} onClick={remove}>
            Remove
          </Button>
        </div>
      </Dialog>
    </>
  );
}

function FileRow({ file, removeFrom }: { file: OrderFile; removeFrom: number | null }) {
  const [busy, setBusy] = useState(false);
  const download = () => {
    setBusy(true);
    downloadOrderFile(file)
      .catch((error: unknown) => toast.error(errorMessage(error)))
      .finally(() => setBusy(false));
  };
  return (
    // Narrow: the name has the first line to itself (it broke letter by letter beside the buttons at 390 px),
    // its type, size and actions the next; wide: one row.
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
      <span className="flex min-w-0 basis-full items-center gap-3 sm:flex-1 sm:basis-0">
        <Icon icon={FileText} className="size-5 shrink-0 text-slate-500" />
        <span className="min-w-0 wrap-anywhere text-slate-900">{file.name}</span>
      </span>
      <span className="ml-8 text-sm text-slate-700 uppercase sm:ml-0">{file.typeName}</span>
      <span className="w-16 text-right text-sm text-slate-700 tabular-nums">{formatFileSize(file.size)}</span>
      <Button variant="secondary" className="px-3!" busy={busy} aria-label={`Download ${file.name}`} onClick={download}>
        <Icon icon={Download} className="size-4" />
        Download
      </Button>
      {removeFrom !== null && <RemoveFile orderId={removeFrom} file={file} />}
    </li>
  );
}

function FileList({
  orderId,
  side,
  title,
  empty,
  removable = false,
}: {
  orderId: number;
  side: FileSide;
  title: string;
  empty: string;
  /** ADR 0096: the customer's own files may be removed (only theirs, only while the order may be edited) */
  removable?: boolean;
}) {
  const files = useOrderFiles(orderId, side);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      {files.isPending && (
        <p className="flex items-center gap-2 text-slate-700">
          <Spinner /> Loading files…
        </p>
      )}
      {files.isError && <Alert tone="error">{LIST_FAILED}</Alert>}
      {files.isSuccess && files.data.length === 0 && <p className="text-slate-700">{empty}</p>}
      {files.isSuccess && files.data.length > 0 && (
        <ul className="divide-y divide-slate-200">
          {files.data.map((file) => (
            <FileRow key={file.id} file={file} removeFrom={removable ? orderId : null} />
          ))}
        </ul>
      )}
    </section>
  );
}

interface Upload {
  key: number;
  name: string;
  percent: number;
  error: string | null;
}

/** DESIGN rule 9: each file uploads on its own request with its own progress bar. */
function FileUploader({ orderId }: { orderId: number }) {
  const queryClient = useQueryClient();
  const nextKey = useRef(1);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const update = (key: number, change: Partial<Upload>) =>
    setUploads((list) => list.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)));

  const onFiles = (picked: File[]): number => {
    let accepted = 0;
    for (const file of picked) {
      const key = nextKey.current++;
      const invalid = validateOrderFile(file);
      setUploads((list) => [...list, { key, name: file.name, percent: 0, error: invalid }]);
      if (invalid !== null) continue;
      accepted += 1;
      uploadOrderFile(orderId, file, (percent) => update(key, { percent }))
        .then(async () => {
          await queryClient.invalidateQueries({ queryKey: orderKeys.files(orderId, 'customers') });
          setUploads((list) => list.filter((upload) => upload.key !== key));
          toast.success(`${file.name} has been uploaded`);
        })
        .catch((error: unknown) => update(key, { error: errorMessage(error) }));
    }
    return accepted;
  };

  return (
    <div className="flex flex-col gap-3">
      <FileDropZone
        variant="panel"
        extensions={ORDER_FILE_EXTENSIONS}
        onFiles={onFiles}
        inputLabel="Add files"
        inputTestId="order-file-input"
        browseLabel="Add files"
        hint="Up to 100MB each"
      />
      {uploads.length > 0 && (
        <ul aria-label="Uploads" className="flex flex-col gap-2">
          {uploads.map((upload) => (
            <li key={upload.key} className="flex flex-col gap-1 rounded-md border border-slate-200 p-3">
              <span className="text-sm font-medium break-all text-slate-900">{upload.name}</span>
              {upload.error === null ? (
                <ProgressBar value={upload.percent} label={`Uploading ${upload.name}`} />
              ) : (
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <Alert tone="error" className="flex-1">
                    {upload.error}
                  </Alert>
                  <Button variant="ghost" onClick={() => setUploads((list) => list.filter((u) => u.key !== upload.key))}>
                    Dismiss
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * SPEC §2 "Files": the customer's files and the writer's files, downloads, new files (dropped or picked,
 * ADR 0096) with progress, and the customer's own files removed while the order may be edited.
 */
export function OrderFilesTab({ orderId, status }: { orderId: number; status: number }) {
  return (
    <div className="flex flex-col gap-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <FileList orderId={orderId} side="writers" title="Writer's files" empty="The writer has not delivered any files yet." />
      <div className="flex flex-col gap-3">
        <FileList
          orderId={orderId}
          side="customers"
          title="Your files"
          empty="You have not added any files."
          removable={customerMayRemoveOwnFile(status)}
        />
        <FileUploader orderId={orderId} />
      </div>
    </div>
  );
}
