import type { ReactNode } from 'react';
import { Toast as ToastPrimitive } from 'radix-ui';
import { CircleAlert, CircleCheck, Info, X } from 'lucide-react';
import { cn } from '@web/lib/utils';
import { dismissToast, useToasts, type TToastVariant } from './use-toast';

const DEFAULT_DURATION = 5000;

const variantStyles: Record<TToastVariant, string> = {
  default: 'border-primary/30 bg-card',
  destructive: 'border-destructive/50 bg-destructive-soft',
  success: 'border-success/40 bg-success-soft',
};

const variantIcons: Record<TToastVariant, ReactNode> = {
  default: <Info className="size-6 shrink-0 text-primary" aria-hidden="true" />,
  destructive: <CircleAlert className="size-6 shrink-0 text-destructive" aria-hidden="true" />,
  success: <CircleCheck className="size-6 shrink-0 text-success" aria-hidden="true" />,
};

/** Renders the toast queue (one at a time) with Radix Toast. Mount once, near the root. */
export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider duration={DEFAULT_DURATION} swipeDirection="right">
      {toasts.map(({ id, title, description, variant = 'default', duration, open }) => (
        <ToastPrimitive.Root
          key={id}
          open={open}
          duration={duration}
          type={variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(isOpen) => {
            if (!isOpen) dismissToast(id);
          }}
          className={cn(
            'pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border-2 p-4 pr-14 text-foreground shadow-lifted',
            'data-[state=open]:animate-toast-in data-[state=closed]:animate-toast-out',
            'data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=cancel]:translate-x-0 data-[swipe=end]:animate-toast-out',
            variantStyles[variant],
          )}
        >
          {variantIcons[variant]}
          <div className="flex flex-col gap-1">
            <ToastPrimitive.Title className="text-lg font-bold leading-snug">
              {title}
            </ToastPrimitive.Title>
            {description ? (
              <ToastPrimitive.Description className="text-base text-foreground/90">
                {description}
              </ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close className="absolute top-2 right-2 inline-flex size-11 cursor-pointer items-center justify-center rounded-lg text-muted-foreground hover:bg-black/5 hover:text-foreground">
            <X className="size-5" aria-hidden="true" />
            <span className="sr-only">Dismiss notification</span>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="fixed top-0 right-0 z-[100] flex w-full flex-col gap-2 p-3 outline-none sm:top-auto sm:right-4 sm:bottom-4 sm:max-w-md sm:p-0" />
    </ToastPrimitive.Provider>
  );
}
