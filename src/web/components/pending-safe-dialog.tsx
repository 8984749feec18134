import type { ComponentProps, FormEvent, ReactNode } from 'react';
import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';

interface PendingSafeDialogProps {
  open: boolean;
  /** Asked to close only when no request runs: closing mid-request would hide its outcome. */
  onOpenChange: (open: boolean) => void;
  isPending: boolean;
  title: ReactNode;
  description: ReactNode;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  submitLabel: string;
  pendingLabel: string;
  submitIcon?: ReactNode;
  submitVariant?: ComponentProps<typeof Button>['variant'];
  onCloseAutoFocus?: (event: Event) => void;
  /** Fields and messages, between the heading and the buttons. */
  children?: ReactNode;
}

/** A dialog with one form and Cancel: neither closing nor a second submit while it is sent. */
export function PendingSafeDialog({
  open,
  onOpenChange,
  isPending,
  title,
  description,
  onSubmit,
  submitLabel,
  pendingLabel,
  submitIcon,
  submitVariant,
  onCloseAutoFocus,
  children,
}: PendingSafeDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={(isOpen) => {
        if (isOpen || !isPending) onOpenChange(isOpen);
      }}
    >
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit(event);
          }}
          className="flex flex-col gap-5"
        >
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          {children}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant={submitVariant} disabled={isPending}>
              {submitIcon}
              {isPending ? pendingLabel : submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
