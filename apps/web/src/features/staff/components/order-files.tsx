import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { downloadStaffOrderFile, useStaffOrderFiles, type StaffOrderFile } from '../api/orders';

const SOURCE = { customer: 'from the customer', writer: 'delivered' } as const;

/** ADR 0071: the order's files for staff, whatever its status (a refunded order's writer files included). */
export function OrderFiles({
  orderId,
  source,
  label = 'Order files',
}: {
  orderId: number;
  source?: 'customer' | 'writer';
  label?: string;
}) {
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
  const shown = source === undefined ? files.data.files : files.data.files.filter((f) => f.source === source);
  if (shown.length === 0)
    return <p className="text-sm text-slate-700">{source === 'customer' ? 'The customer attached no files.' : 'No files yet.'}</p>;
  return (
    <ul aria-label={label} className="flex flex-col gap-2 text-sm">
      {shown.map((f) => (
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
