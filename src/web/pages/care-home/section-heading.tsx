import type { ReactNode } from 'react';
import { CardHeader, CardDescription } from '@web/components/ui/card';

/** A section's heading and what it is for, as every care-home card opens. */
export function SectionHeading({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children?: ReactNode;
}) {
  return (
    <CardHeader>
      <h2 id={id} className="text-xl font-bold tracking-tight sm:text-2xl">
        {title}
      </h2>
      {children && <CardDescription className="text-base">{children}</CardDescription>}
    </CardHeader>
  );
}
