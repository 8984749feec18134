import type { ReactNode } from 'react';
import { usePageTitle } from '@web/lib/use-page-title';

interface PagePlaceholderProps {
  title: string;
  /** One honest line on what this page will hold. */
  children: ReactNode;
}

/** Stand-in for a page that a later release builds. */
export function PagePlaceholder({ title, children }: PagePlaceholderProps) {
  usePageTitle(title);
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 py-6">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      <div className="flex flex-col gap-3 text-lg text-muted-foreground">{children}</div>
    </div>
  );
}
