import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { downloadStaffOrderFile, useStaffOrderFiles, type StaffOrderFile } from '../api/orders';

const SOURCE = { customer: 'from the customer', writer: 'delivered' } as const;

/** ADR 0071: the order's files for staff, whatever its status (a refunded order's writer files included). */
export function OrderFiles({ orderId }: { orderId: number }) {
  const files = useStaffOrderFiles(orderId);
  const [busy, setBusy] = useState<number | null>(null);
  const download = async (file: StaffOrderFile) => {
    setBusy(file.id);
    try {
      await downloadStaffOrderFile(orderId, file);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };
  if (files.isPending)
    return (
      <div className="flex items-center gap-2 text-sm" role="status">
        <Spinner /> Loading files…
      </div>
    );
  if (files.isError) return <p className="text-sm text-red-700">{errorMessage(files.error)}</p>;
  if (files.data.files.length === 0) return <p className="text-sm text-slate-700">No files yet.</p>;
  return (
    <ul aria-label="Order files" className="flex flex-col gap-2 text-sm">
      {files.data.files.map((f) => (
        <li key={f.id} className="flex flex-wrap items-center justify-between gap-2">
          <span className="min-w-0 break-all">
            {f.name} <span className="text-slate-700">· {SOURCE[f.source]}</span>
          </span>
          <Button variant="ghost" busy={busy === f.id} aria-label={`Download ${f.name}`} onClick={() => void download(f)}>
            Download
          </Button>
        </li>
      ))}
    </ul>
  );
}
