import { useId, useRef, useState, type FormEvent } from 'react';
import { assignWarnings } from '@app/domain/staff/rules';
import { Alert } from '@/components/ui/alert';
import { inputClass } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { toast } from '@/components/ui/toast';
import { errorMessage, ApiError } from '@/lib/api-client';
import { UploadCanceledError } from '@/lib/upload';
import { useQueryClient } from '@tanstack/react-query';
import { deliverOrderFile, useAssignWriter, useStaffWriters, type StaffOrderView, type StaffWriter } from '../api/orders';
import { staffKeys } from '../api/keys';

/** ADR 0089: how a writer reads in the list: workload, availability, record. */
const writerFacts = (w: StaffWriter) =>
  [
    `${w.activeOrders} of ${w.capacity} active`,
    w.available ? 'available' : 'unavailable',
    w.rating === null ? 'no rating yet' : `rated ${w.rating.toFixed(1)}`,
    w.onTimeRate === null ? 'no deliveries yet' : `${Math.round(w.onTimeRate * 100)} % on time`,
  ].join(' · ');

/**
 * CONTRACT "Staff side", ADR 0089: support assigns from a searchable list of writers with their workload
 * and record; a writer over capacity, unavailable, or not the one the customer asked for is warned of.
 */
export function WriterForm({ order }: { order: StaffOrderView }) {
  const assign = useAssignWriter(order.id);
  const searchId = useId();
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const writers = useStaffWriters(query);
  const [chosen, setChosen] = useState<number | null>(order.idWriter);
  const [error, setError] = useState<string | null>(null);
  const list = writers.data?.writers ?? [];
  const writer = list.find((w) => w.id === chosen) ?? null;
  const warnings =
    writer && writer.id !== order.idWriter ? assignWarnings({ writer, preferredWriterIds: order.brief.preferredWritersList }) : [];
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen === null || !writer) {
      setError('Choose a writer');
      return;
    }
    setError(null);
    assign.mutate(chosen, {
      onSuccess: (next) => toast.success(`${next.writerName ?? `Writer #${chosen}`} assigned`),
      onError: (caught) => setError((caught instanceof ApiError ? caught.fieldErrors.idWriter?.[0] : undefined) ?? errorMessage(caught)),
    });
  };
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-700">{order.writerName === null ? 'No writer yet.' : `Now: ${order.writerName}.`}</p>
      <form
        role="search"
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery(search.trim());
        }}
      >
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={searchId} className="text-sm font-medium text-slate-800">
            Find a writer
          </label>
          <input
            id={searchId}
            type="search"
            className={`${inputClass} min-w-0`}
            value={search}
            maxLength={100}
            placeholder="Name or email"
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <Button type="submit" variant="secondary">
          Find
        </Button>
      </form>
      <form onSubmit={onSubmit} className="flex flex-col gap-3" aria-label="Assign writer" noValidate>
        {writers.isPending ? (
          <div className="flex items-center gap-2 text-sm" role="status">
            <Spinner /> Loading writers…
          </div>
        ) : writers.isError ? (
          <p className="text-sm text-red-700">{errorMessage(writers.error)}</p>
        ) : list.length === 0 ? (
          <p className="text-sm text-slate-700">No writer matches.</p>
        ) : (
          <fieldset data-focus-inset className="flex max-h-72 flex-col gap-1 overflow-y-auto rounded-md border border-slate-200 p-2">
            <legend className="px-1 text-sm font-medium text-slate-800">Writers</legend>
            {list.map((w) => (
              <div key={w.id} className="flex items-start gap-2 rounded p-1 text-sm hover:bg-slate-50">
                <input
                  type="radio"
                  id={`writer-${order.id}-${w.id}`}
                  name={`writer-${order.id}`}
                  className="mt-1"
                  checked={chosen === w.id}
                  onChange={() => {
                    setChosen(w.id);
                    setError(null);
                  }}
                />
                <label htmlFor={`writer-${order.id}-${w.id}`} className="min-w-0 cursor-pointer">
                  <span className="block font-medium">
                    {w.firstName} {w.lastName} <span className="font-normal text-slate-700">#{w.id}</span>
                    {order.brief.preferredWritersList.includes(w.id) && (
                      <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">Preferred</span>
                    )}
                  </span>{' '}
                  <span className="block text-slate-700">{writerFacts(w)}</span>
                </label>
              </div>
            ))}
          </fieldset>
        )}
        {warnings.length > 0 && (
          <Alert tone="warning" title="Before you assign">
            <ul className="list-disc pl-5">
              {warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </Alert>
        )}
        {error && (
          <p className="text-sm text-red-700" role="alert">
            {error}
          </p>
        )}
        <Button type="submit" variant="secondary" busy={assign.isPending} disabled={chosen === null || chosen === order.idWriter}>
          {warnings.length > 0 ? 'Assign anyway' : 'Assign writer'}
        </Button>
      </form>
    </div>
  );
}

/**
 * CONTRACT "Staff side" delivery, ADR 0089: several files, sent one after the other with their progress;
 * each becomes a writer file the customer lists and downloads.
 */
export function DeliverFile({ orderId }: { orderId: number }) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [current, setCurrent] = useState<{ name: string; percent: number; index: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [delivered, setDelivered] = useState<{ id: number; name: string }[]>([]);
  const abort = useRef<AbortController | null>(null);
  const queryClient = useQueryClient();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (files.length === 0) {
      setError('Choose the files to deliver');
      return;
    }
    setError(null);
    const controller = new AbortController();
    abort.current = controller;
    const left = [...files];
    try {
      for (const [index, file] of files.entries()) {
        setCurrent({ name: file.name, percent: 0, index });
        const stored = await deliverOrderFile(
          orderId,
          file,
          (percent) => setCurrent({ name: file.name, percent, index }),
          controller.signal,
        );
        setDelivered((list) => [...list, { id: stored.id, name: stored.name }]);
        left.shift();
        toast.success(`${stored.name} uploaded`);
      }
      if (inputRef.current) inputRef.current.value = '';
    } catch (caught) {
      if (!(caught instanceof UploadCanceledError)) setError(errorMessage(caught));
    } finally {
      setFiles(left);
      abort.current = null;
      setCurrent(null);
      // ADR 0071: a delivered file may allow a move; the view and its files reload.
      void queryClient.invalidateQueries({ queryKey: staffKeys.order(orderId) });
      void queryClient.invalidateQueries({ queryKey: staffKeys.files(orderId) });
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-3" aria-label="Deliver files" noValidate>
      <div className="flex flex-col gap-1">
        <label htmlFor={inputId} className="text-sm font-medium text-slate-800">
          Files for the customer
        </label>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          multiple
          aria-describedby={error ? `${inputId}-error` : undefined}
          aria-invalid={error ? true : undefined}
          className="max-w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium"
          onChange={(event) => setFiles(Array.from(event.target.files ?? []))}
        />
        {error && (
          <p id={`${inputId}-error`} className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
      {current !== null && (
        <ProgressBar value={current.percent} label={`Uploading ${current.name} (${current.index + 1} of ${files.length})`} />
      )}
      <div className="flex gap-2">
        <Button type="submit" variant="secondary" busy={current !== null}>
          {files.length > 1 ? `Upload ${files.length} files` : 'Upload file'}
        </Button>
        {current !== null && (
          <Button variant="ghost" onClick={() => abort.current?.abort()}>
            Cancel
          </Button>
        )}
      </div>
      {delivered.length > 0 && (
        <ul aria-label="Uploaded files" className="flex flex-col gap-1 text-sm text-slate-800">
          {delivered.map((f) => (
            <li key={f.id}>Uploaded: {f.name}</li>
          ))}
        </ul>
      )}
      <p className="text-sm text-slate-700">Then submit the delivery below: the customer is told the work is ready.</p>
    </form>
  );
}
