import type { ComponentProps } from 'react';
import { Tabs as TabsPrimitive } from 'radix-ui';
import { cn } from '@web/lib/utils';

export const Tabs = TabsPrimitive.Root;

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn(
        'flex w-full gap-1 overflow-x-auto rounded-xl border border-border bg-muted p-1.5',
        className,
      )}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        'inline-flex min-h-14 flex-1 cursor-pointer flex-col items-center justify-center gap-1 rounded-lg px-2 py-1.5 sm:min-h-12 sm:flex-row sm:gap-2 sm:px-4 sm:py-2 text-base font-semibold whitespace-nowrap text-muted-foreground transition-colors [&_svg]:size-5 [&_svg]:shrink-0',
        'hover:bg-card/70 hover:text-foreground',
        'data-[state=active]:bg-card data-[state=active]:text-primary data-[state=active]:shadow-sm',
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return <TabsPrimitive.Content className={cn('flex flex-col gap-6', className)} {...props} />;
}
