import type { ReactNode } from 'react';

interface PageIntroProps {
  /** A short line above the title naming the section, e.g. 'About'. */
  eyebrow?: string;
  title: string;
  children?: ReactNode;
}

/** The title block every public page opens with: calm, large and left-aligned. */
export function PageIntro({ eyebrow, title, children }: PageIntroProps) {
  return (
    <header className="flex flex-col gap-3">
      {eyebrow && (
        <p className="text-base font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
      )}
      <h1 className="text-3xl font-bold tracking-tight sm:text-5xl">{title}</h1>
      {children && (
        <div className="max-w-3xl text-lg text-muted-foreground sm:text-xl">{children}</div>
      )}
    </header>
  );
}
