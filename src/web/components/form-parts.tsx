import type { ReactNode } from 'react';
import { CircleAlert } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { cn } from '@web/lib/utils';

/** A request that failed, said inside the form, where a screen reader in it hears it. */
export function FormErrorAlert({ title, message }: { title: string; message: ReactNode }) {
  return (
    <Alert variant="destructive" title={title} icon={<CircleAlert aria-hidden="true" />}>
      <p>{message}</p>
    </Alert>
  );
}

interface FormSubmitButtonProps {
  isPending: boolean;
  label: string;
  pendingLabel: string;
  className?: string;
}

/** The full-width submit button of a page's form; disabled, and saying so, while it is sent. */
export function FormSubmitButton({
  isPending,
  label,
  pendingLabel,
  className,
}: FormSubmitButtonProps) {
  return (
    <Button type="submit" size="lg" disabled={isPending} className={cn('w-full', className)}>
      {isPending ? pendingLabel : label}
    </Button>
  );
}
