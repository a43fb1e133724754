import { useQuery } from '@tanstack/react-query';
import type { OrderFile } from '@app/domain/files';
import { downloadFile } from '@/lib/download';
import { orderFilesQueryOptions, type FileSide } from '@/lib/resources/orders';

export const useOrderFiles = (orderId: number, side: FileSide) => useQuery(orderFilesQueryOptions(orderId, side));

/** CONTRACT "Paths": GET /api/en/orders/files/{id}, through a download link (lib/download, ADR 0080). */
export const downloadOrderFile = (file: Pick<OrderFile, 'id' | 'name'>): Promise<void> => downloadFile(file);
