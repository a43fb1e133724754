import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Download, FileText, Upload } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { useQueryClient } from '@tanstack/react-query';
import type { OrderFile } from '@app/domain/files';
import { formatFileSize, ORDER_FILE_EXTENSIONS, validateOrderFile } from '@app/domain/files/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { uploadOrderFile } from '@/lib/resources/order-uploads';
import { orderKeys, type FileSide } from '@/lib/resources/orders';
import { downloadOrderFile, useOrderFiles } from '../api/order-files';

const LIST_FAILED = 'Something went wrong while loading the files';

function FileRow({ file }: { file: OrderFile }) {
  const [busy, setBusy] = useState(false);
  const download = () => {
    setBusy(true);
    downloadOrderFile(file)
      .catch((error: unknown) => toast.error(errorMessage(error)))
      .finally(() => setBusy(false));
  };
  return (
    <li className="flex flex-wrap items-center gap-3 py-2">
      <Icon icon={FileText} className="size-5 shrink-0 text-slate-500" />
      <span className="min-w-0 flex-1 break-all text-slate-900">{file.name}</span>
      <span className="text-sm text-slate-700 uppercase">{file.typeName}</span>
      <span className="w-16 text-right text-sm text-slate-700 tabular-nums">{formatFileSize(file.size)}</span>
      <Button variant="secondary" className="px-3!" busy={busy} aria-label={`Download ${file.name}`} onClick={download}>
        <Icon icon={Download} className="size-4" />
        Download
      </Button>
    </li>
  );
}

function FileList({ orderId, side, title, empty }: { orderId: number; side: FileSide; title: string; empty: string }) {
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
            <FileRow key={file.id} file={file} />
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
  const inputRef = useRef<HTMLInputElement>(null);
  const nextKey = useRef(1);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const update = (key: number, change: Partial<Upload>) =>
    setUploads((list) => list.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)));

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = [...(event.target.files ?? [])];
    event.target.value = '';
    for (const file of picked) {
      const key = nextKey.current++;
      const invalid = validateOrderFile(file);
      setUploads((list) => [...list, { key, name: file.name, percent: 0, error: invalid }]);
      if (invalid !== null) continue;
      uploadOrderFile(orderId, file, (percent) => update(key, { percent }))
        .then(async () => {
          await queryClient.invalidateQueries({ queryKey: orderKeys.files(orderId, 'customers') });
          setUploads((list) => list.filter((upload) => upload.key !== key));
          toast.success(`${file.name} has been uploaded`);
        })
        .catch((error: unknown) => update(key, { error: errorMessage(error) }));
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <input
        ref={inputRef}
        type="file"
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        accept={ORDER_FILE_EXTENSIONS.map((ext) => (ext === 'tar-gz' ? '.tar.gz' : `.${ext}`)).join(',')}
        onChange={onPick}
        data-testid="order-file-input"
      />
      <div>
        <Button variant="secondary" onClick={() => inputRef.current?.click()}>
          <Icon icon={Upload} className="size-4" />
          Add files
        </Button>
      </div>
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

/** SPEC §2 "Files": the customer's files and the writer's files, downloads, and new files with progress. */
export function OrderFilesTab({ orderId }: { orderId: number }) {
  return (
    <div className="flex flex-col gap-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <FileList orderId={orderId} side="writers" title="Writer's files" empty="The writer has not delivered any files yet." />
      <div className="flex flex-col gap-3">
        <FileList orderId={orderId} side="customers" title="Your files" empty="You have not added any files." />
        <FileUploader orderId={orderId} />
      </div>
    </div>
  );
}
