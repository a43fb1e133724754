import { vi } from 'vitest';

type UploadProgress = { lengthComputable: boolean; loaded: number; total: number };

/**
 * An XMLHttpRequest the test answers by hand, for uploads (lib/upload.ts): happy-dom has no upload
 * events, and MSW cannot report progress. `installFakeXhr()` puts it in place; each request sent is
 * in `FakeXhr.sent`, in order.
 */
export class FakeXhr {
  static sent: FakeXhr[] = [];
  status = 0;
  responseText = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  aborted = false;
  upload: { onprogress: ((event: UploadProgress) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  /** Answers with `status` and `body` (JSON unless a string). */
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }
}

/** Replaces XMLHttpRequest with FakeXhr (until `vi.unstubAllGlobals()`); answers the list of requests sent. */
export const installFakeXhr = (): typeof FakeXhr.sent => {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return FakeXhr.sent;
};
