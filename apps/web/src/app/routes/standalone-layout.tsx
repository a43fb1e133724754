import type { ReactNode } from 'react';
import { Header } from '@/components/layout/header';
import { paths } from '@/config/paths';
import { PageHeading } from '@/components/ui/page-heading';

/** Pages outside the shell (sign-in, password reset, signed out, not found): header and one card. */
export function StandalonePage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <Header homeTo={paths.order} />
      <main className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center">
        <div className="flex w-full max-w-md flex-col gap-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <PageHeading>{title}</PageHeading>
          {children}
        </div>
      </main>
    </div>
  );
}
