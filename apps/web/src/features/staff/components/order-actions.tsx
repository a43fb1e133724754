import { useId, useRef, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { ProgressBar } from '@/components/ui/progress-bar';
import { toast } from '@/components/ui/toast';
import { errorMessage, ApiError } from '@/lib/api-client';
import { UploadCanceledError } from '@/lib/upload';
import { useQueryClient } from '@tanstack/react-query';
import { deliverOrderFile, useAssignWriter, type StaffOrder } from '../api/orders';
import { staffKeys } from '../api/keys';

const WRITER_ID_PATTERN = /^\d{1,10}$/;

/** CONTRACT "Staff side": support assigns a writer account by its id (the API lists no writers). */
export function WriterForm({ order }: { order: StaffOrder }) {
  const assign = useAssignWriter(order.id);
  const { register, handleSubmit, formState, setError } = useForm<{ idWriter: string }>({
    defaultValues: { idWriter: order.idWriter === null ? '' : String(order.idWriter) },
  });
  const onSubmit = handleSubmit(({ idWriter }) => {
    const id = Number(idWriter);
    assign.mutate(id, {
      onSuccess: (next) => toast.success(`Writer #${next.idWriter ?? id} assigned`),
      onError: (error) =>
        setError('idWriter', { message: (error instanceof ApiError ? error.fieldErrors.idWriter?.[0] : undefined) ?? errorMessage(error) }),
    });
  });
  return (
    <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-3" aria-label="Assign writer" noValidate>
      <TextField
        label="Writer account id"
        error={formState.errors.idWriter?.message}
        hint={order.idWriter === null ? 'No writer yet' : `Now: writer #${order.idWriter}`}
        inputMode="numeric"
        autoComplete="off"
        {...register('idWriter', {
          validate: (value) => (WRITER_ID_PATTERN.test(value.trim()) && Number(value) >= 1) || 'Enter the writer’s account id',
        })}
      />
      <Button type="submit" variant="secondary" busy={assign.isPending}>
        Assign writer
      </Button>
    </form>
  );
}

/** CONTRACT "Staff side" delivery: the file becomes a writer file the customer lists and downloads. */
export function DeliverFile({ orderId }: { orderId: number }) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [delivered, setDelivered] = useState<{ id: number; name: string }[]>([]);
  const abort = useRef<AbortController | null>(null);
  const queryClient = useQueryClient();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setError('Choose a file to deliver');
      return;
    }
    setError(null);
    const controller = new AbortController();
    abort.current = controller;
    setProgress(0);
    try {
      const stored = await deliverOrderFile(orderId, file, setProgress, controller.signal);
      setDelivered((list) => [...list, { id: stored.id, name: stored.name }]);
      // ADR 0071: a delivery may allow a move (3 → 5); the view and its files reload.
      void queryClient.invalidateQueries({ queryKey: staffKeys.order(orderId) });
      void queryClient.invalidateQueries({ queryKey: staffKeys.files(orderId) });
      toast.success(`${stored.name} delivered`);
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
    } catch (caught) {
      if (!(caught instanceof UploadCanceledError)) setError(errorMessage(caught));
    } finally {
      abort.current = null;
      setProgress(null);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-3" aria-label="Deliver a file" noValidate>
      <div className="flex flex-col gap-1">
        <label htmlFor={inputId} className="text-sm font-medium text-slate-800">
          File for the customer
        </label>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          aria-describedby={error ? `${inputId}-error` : undefined}
          aria-invalid={error ? true : undefined}
          className="text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium"
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        />
        {error && (
          <p id={`${inputId}-error`} className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
      {progress !== null && <ProgressBar value={progress} label={`Uploading ${file?.name ?? 'file'}`} />}
      <div className="flex gap-2">
        <Button type="submit" variant="secondary" busy={progress !== null}>
          Deliver file
        </Button>
        {progress !== null && (
          <Button variant="ghost" onClick={() => abort.current?.abort()}>
            Cancel
          </Button>
        )}
      </div>
      {delivered.length > 0 && (
        <ul aria-label="Delivered files" className="flex flex-col gap-1 text-sm text-slate-800">
          {delivered.map((f) => (
            <li key={f.id}>Delivered: {f.name}</li>
          ))}
        </ul>
      )}
    </form>
  );
}
