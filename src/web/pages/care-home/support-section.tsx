import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  SUPPORT_CATEGORIES,
  SUPPORT_CATEGORY_LABELS,
  SUPPORT_DATA_PROTECTION_NOTE,
  SUPPORT_MESSAGES,
  SUPPORT_URGENCIES,
  SUPPORT_URGENCY_LABELS,
  type TSupportAnswer,
  type TSupportCategory,
  type TSupportUrgency,
} from '@shared/schemas/support';
import { FormErrorAlert } from '@web/components/form-parts';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { CheckboxField } from '@web/components/ui/checkbox-field';
import { Label } from '@web/components/ui/label';
import {
  collectDiagnostics,
  HOME_SUPPORT_KEY,
  sendSupportRequest,
} from '@web/features/support/support-api';
import { describeError } from '@web/lib/api-client';
import { SectionHeading } from './section-heading';

const selectClass =
  'min-h-12 w-full rounded-lg border-2 border-input bg-card px-3 text-lg text-foreground';

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** Get help: the home's manager and staff ask, and see when to expect an answer. */
export function SupportSection({ support }: { support: TSupportAnswer }) {
  const queryClient = useQueryClient();
  const categoryId = useId();
  const urgencyId = useId();
  const descriptionId = useId();
  const [category, setCategory] = useState<TSupportCategory | ''>('');
  const [urgency, setUrgency] = useState<TSupportUrgency>('normal');
  const [description, setDescription] = useState('');
  const [withDiagnostics, setWithDiagnostics] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [sentTarget, setSentTarget] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);

  async function onSend(event: FormEvent) {
    event.preventDefault();
    setIsSending(true);
    setError(null);
    setSentTarget(null);
    try {
      const sent = await sendSupportRequest({
        category: category as TSupportCategory,
        urgency,
        description,
        ...(withDiagnostics ? { diagnostics: await collectDiagnostics() } : {}),
      });
      setDescription('');
      setSentTarget(`${SUPPORT_MESSAGES.sent} ${sent.target} Due by ${dateTime(sent.dueAt)}.`);
      await queryClient.invalidateQueries({ queryKey: HOME_SUPPORT_KEY });
    } catch (caught) {
      setError(describeError(caught, 'Please try again.'));
    } finally {
      setIsSending(false);
    }
  }

  return (
    <Card asChild>
      <section aria-labelledby="support-heading">
        <SectionHeading id="support-heading" title="Get help">
          {support.isPriority
            ? `Professional homes are answered first. Urgent: ${support.targets.urgent} Normal: ${support.targets.normal}`
            : support.targets.normal}{' '}
          We answer by email, Monday to Friday, 9am to 5pm UK time, except bank holidays in England
          and Wales.
        </SectionHeading>
        <CardContent className="flex flex-col gap-6">
          <form className="flex flex-col gap-4" onSubmit={onSend} noValidate>
            {error && <FormErrorAlert title="Your request could not be sent" message={error} />}
            {sentTarget && (
              <Alert variant="success" title="Request sent">
                <p>{sentTarget}</p>
              </Alert>
            )}
            <div className="flex flex-col gap-2">
              <Label htmlFor={categoryId}>What is it about?</Label>
              <select
                id={categoryId}
                className={selectClass}
                value={category}
                onChange={(event) => setCategory(event.target.value as TSupportCategory | '')}
                aria-required
              >
                <option value="">Choose one</option>
                {SUPPORT_CATEGORIES.map((choice) => (
                  <option key={choice} value={choice}>
                    {SUPPORT_CATEGORY_LABELS[choice]}
                  </option>
                ))}
              </select>
              {category === 'data_protection' && (
                <p className="text-base text-muted-foreground">{SUPPORT_DATA_PROTECTION_NOTE}</p>
              )}
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor={urgencyId}>How urgent is it?</Label>
              <select
                id={urgencyId}
                className={selectClass}
                value={urgency}
                onChange={(event) => setUrgency(event.target.value as TSupportUrgency)}
              >
                {SUPPORT_URGENCIES.map((choice) => (
                  <option key={choice} value={choice}>
                    {SUPPORT_URGENCY_LABELS[choice]}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor={descriptionId}>What is wrong?</Label>
              <textarea
                id={descriptionId}
                className="min-h-32 w-full rounded-lg border-2 border-input bg-card p-3 text-lg text-foreground"
                value={description}
                onChange={(event) => setDescription(event.target.value)}
                aria-required
              />
            </div>
            <CheckboxField checked={withDiagnostics} onCheckedChange={setWithDiagnostics}>
              Include diagnostics: this browser, app version and storage use (never videos, titles
              or recipients)
            </CheckboxField>
            <Button type="submit" className="self-start" disabled={isSending}>
              {isSending ? 'Sending…' : 'Send request'}
            </Button>
          </form>
          <SupportRequestList requests={support.requests} />
        </CardContent>
      </section>
    </Card>
  );
}

/** The home's requests so far, with when each was answered or is due. */
function SupportRequestList({ requests }: { requests: TSupportAnswer['requests'] }) {
  if (requests.length === 0) return null;
  return (
    <ul className="flex flex-col gap-3" aria-label="Your requests">
      {requests.map((request) => (
        <li key={request.id} className="rounded-lg border-2 border-border p-4">
          <p className="text-lg font-semibold">
            {SUPPORT_CATEGORY_LABELS[request.category]} ·{' '}
            {request.status === 'answered' ? 'Answered' : 'Received'}
          </p>
          <p className="text-base text-muted-foreground">
            Sent {dateTime(request.createdAt)} by {request.requesterName}.{' '}
            {request.status === 'answered'
              ? `Answered ${dateTime(request.answeredAt!)}.`
              : `${request.target} Due by ${dateTime(request.dueAt)}.`}
          </p>
        </li>
      ))}
    </ul>
  );
}
