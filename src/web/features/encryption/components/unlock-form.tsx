import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { describeError } from '@web/lib/api-client';
import { requestCloudSync } from '@web/lib/sync-request';

/** One try at opening the account key on this device; a failure is said in words. */
export function useUnlockAttempt() {
  const [isWorking, setIsWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function attempt(event: FormEvent, unlock: () => Promise<void>) {
    event.preventDefault();
    if (isWorking) return;
    setIsWorking(true);
    setError(null);
    try {
      await unlock();
      // The page shows the device as unlocked by itself (it watches the key store); messages
      // waiting for the key go now.
      requestCloudSync();
    } catch (reason) {
      setError(describeError(reason, 'This device could not be unlocked. Please try again.'));
      setIsWorking(false);
    }
  }

  return { isWorking, error, setError, attempt };
}

/** The frame every way of unlocking shares: heading, why, the fields, progress and the button. */
export function UnlockForm({
  icon: Icon,
  title,
  intro,
  isWorking,
  submitLabel,
  onSubmit,
  otherAction,
  children,
}: {
  icon: LucideIcon;
  title: string;
  intro: ReactNode;
  isWorking: boolean;
  submitLabel: string;
  onSubmit: (event: FormEvent) => Promise<void>;
  otherAction?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-5 sm:rounded-lg sm:border-2 sm:p-5"
    >
      <h3 id={headingId} className="flex items-center gap-3 text-xl font-bold">
        <Icon className="size-6 shrink-0 text-primary" aria-hidden="true" />
        {title}
      </h3>
      <p className="text-lg">{intro}</p>
      <form className="flex flex-col gap-5" onSubmit={(event) => void onSubmit(event)} noValidate>
        {children}
        {isWorking && (
          <p role="status" className="flex items-center gap-3 text-lg">
            <Spinner />
            Opening your key. This takes a few seconds…
          </p>
        )}
        <div className={otherAction ? 'flex flex-col gap-3 sm:flex-row sm:flex-wrap' : undefined}>
          <Button type="submit" size="lg" disabled={isWorking}>
            {isWorking ? 'Unlocking…' : submitLabel}
          </Button>
          {otherAction}
        </div>
      </form>
    </section>
  );
}

/** 'Your password', as the owner signs in with it: the field each of these forms asks with. */
export function OwnPasswordField({
  value,
  onChange,
  error,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  disabled: boolean;
}) {
  return (
    <FormField
      label="Your password"
      type="password"
      autoComplete="current-password"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error ?? undefined}
      disabled={disabled}
    />
  );
}
