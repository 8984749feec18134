import { useId } from 'react';
import { Link } from 'react-router';
import { UserPlus } from 'lucide-react';
import type { TRecipient } from '@shared/schemas/recipients';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Label } from '@web/components/ui/label';

const selectClass =
  'min-h-12 w-full rounded-lg border-2 border-input bg-card px-3 text-lg text-foreground aria-[invalid=true]:border-destructive';

interface RecipientSelectProps {
  recipients: TRecipient[];
  value: number | null;
  onChange: (id: number | null) => void;
  disabled: boolean;
  error: string | undefined;
}

export function RecipientSelect({
  recipients,
  value,
  onChange,
  disabled,
  error,
}: RecipientSelectProps) {
  const id = useId();
  if (recipients.length === 0) {
    return (
      <Alert variant="info" kind="note" title="Add someone to record for">
        <p>You have no recipients yet. Add the people you want to record messages for.</p>
        <div>
          <Button asChild variant="outline">
            <Link to="/recipients">
              <UserPlus aria-hidden="true" />
              Manage Recipients
            </Link>
          </Button>
        </div>
      </Alert>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <div className="leading-snug">
        <Label htmlFor={id} className="inline">
          Recipient
        </Label>
        <span aria-hidden="true" className="ml-1 font-semibold text-destructive">
          *
        </span>
      </div>
      <select
        id={id}
        className={selectClass}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value ? Number(event.target.value) : null)}
        disabled={disabled}
        aria-required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        <option value="">Choose a recipient</option>
        {recipients.map((recipient) => (
          <option key={recipient.id} value={recipient.id}>
            {recipient.firstName} {recipient.lastName}
          </option>
        ))}
      </select>
      {error && (
        <p
          id={`${id}-error`}
          className="flex items-start gap-2 text-base font-semibold text-destructive"
        >
          <span aria-hidden="true">⚠</span>
          {error}
        </p>
      )}
    </div>
  );
}

interface PromptSelectProps {
  prompts: { id: string; title: string }[];
  value: string | null;
  onChange: (id: string | null) => void;
  disabled: boolean;
}

export function PromptSelect({ prompts, value, onChange, disabled }: PromptSelectProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>Prompt (optional)</Label>
      <p id={`${id}-hint`} className="-mt-1 text-base text-muted-foreground">
        Not sure what to say? Choose a prompt to get you started.
      </p>
      <select
        id={id}
        className={selectClass}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
      >
        <option value="">No prompt</option>
        {prompts.map((prompt) => (
          <option key={prompt.id} value={prompt.id}>
            {prompt.title}
          </option>
        ))}
      </select>
    </div>
  );
}
