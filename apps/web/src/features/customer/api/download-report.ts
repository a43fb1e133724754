import { useMutation } from '@tanstack/react-query';
import { downloadGenerated } from '@/lib/download';

/** SPEC §7 / CONTRACT: GET /api/en/customers/customer/gdpr?id={id}, a JSON attachment (streamed by the server). */
export const downloadReport = (customerId: number): Promise<void> =>
  downloadGenerated(`/api/en/customers/customer/gdpr?id=${customerId}`, `personal-data-${customerId}.json`);

export const useDownloadReport = () => useMutation({ mutationFn: downloadReport });
