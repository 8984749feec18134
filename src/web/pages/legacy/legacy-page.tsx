import { useId, useState } from 'react';
import { Navigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CircleCheck, Hourglass, Settings2 } from 'lucide-react';
import {
  INACTIVITY_MONTHS,
  LEGACY_MESSAGES,
  LEGACY_WAITING_DAYS,
  type TInactivityMonths,
} from '@shared/domain/legacy';
import type { TLegacySettings, TLegacyState } from '@shared/schemas/legacy';
import { BackHomeLink } from '@web/components/back-home-link';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { CheckboxField } from '@web/components/ui/checkbox-field';
import { FormField } from '@web/components/ui/form-field';
import { PageSpinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useAuth } from '@web/lib/auth-provider';
import { CANCEL_TEXT, describeAsker, formatLongDate } from '@web/features/legacy/release-wording';
import { EndRelease } from '@web/features/legacy/components/end-release';
import {
  LEGACY_QUERY_KEY,
  saveLegacySettings,
  useLegacyState,
} from '@web/features/legacy/legacy-api';
import { NextOfKinAsking } from '@web/features/legacy/components/next-of-kin-asking';
import { useCancelRelease } from '@web/features/legacy/use-cancel-release';
import { describeError } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { usePageTitle } from '@web/lib/use-page-title';

const PAGE_TITLE = 'Legacy release';
const SHOW_WAITING_LABEL = 'Let recipients see that a message is waiting for them';

/**
 * The owner's legacy release: how long a next of kin's request waits for them to answer, the
 * optional inactivity check, whether recipients see what waits for them, and where a release stands.
 */
export default function LegacyPage() {
  usePageTitle(PAGE_TITLE);
  const { user } = useAuth();
  if (user?.category !== 'primary') return <Navigate to="/" replace />;
  return <LegacyRelease />;
}

function LegacyRelease() {
  const { data, isLoading, error } = useLegacyState();

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <BackHomeLink />
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{PAGE_TITLE}</h1>
        <p className="text-lg text-muted-foreground">
          Your next of kin can ask to release your legacy with their emergency code. You are emailed
          at once and can cancel during the waiting period. If you do not, the messages you set to
          open &lsquo;After my legacy is released&rsquo; open to the people they are for.
        </p>
      </div>
      {isLoading && <PageSpinner label="Loading your legacy release" />}
      {error && (
        <Alert variant="destructive" title="Your legacy release could not be loaded">
          <p>{describeError(error, 'Please try again.')}</p>
        </Alert>
      )}
      {data && <ReleaseState state={data} />}
      {data && <NextOfKinAsking askers={data.askers} />}
      {data && <SettingsForm key={JSON.stringify(data.settings)} settings={data.settings} />}
    </div>
  );
}

function ReleaseState({ state }: { state: TLegacyState }) {
  const { cancel, isCancelling, isCancelled, error } = useCancelRelease();
  const { request, releasedAt } = state;
  return (
    <Card asChild>
      <section aria-labelledby="state-heading">
        <CardHeader>
          <h2 id="state-heading" className="flex items-center gap-3 text-2xl font-bold">
            <Hourglass className="size-6 text-primary" aria-hidden="true" />
            Where it stands
          </h2>
        </CardHeader>
        <CardContent className="flex flex-col gap-4 text-lg">
          {request ? (
            <>
              <p>
                {describeAsker(request.requestedBy)} asked to release your legacy on{' '}
                {formatLongDate(request.requestedAt)}. Unless you cancel, it is released on{' '}
                {formatLongDate(request.releasesAt)}.
              </p>
              <div>
                <Button size="lg" onClick={cancel} aria-disabled={isCancelling || undefined}>
                  {isCancelling ? 'Cancelling...' : CANCEL_TEXT.button}
                </Button>
              </div>
            </>
          ) : releasedAt ? (
            <>
              <p>
                Your legacy was released on {formatLongDate(releasedAt)}. The messages you set to
                open after it are open to the people they are for.
              </p>
              <p>If you did not expect this, you can end the release.</p>
              <EndRelease opened={state.opened} />
            </>
          ) : state.endedAt ? (
            <p role="status">
              You ended the release of your legacy on {formatLongDate(state.endedAt)}. Messages
              nobody had watched are closed again, and your messages for after your legacy are
              sealed.
            </p>
          ) : (
            <p>Nobody has asked to release your legacy.</p>
          )}
          {isCancelled && !request && (
            <p role="status" className="flex items-center gap-2 font-semibold text-success">
              <CircleCheck className="size-6 shrink-0" aria-hidden="true" />
              {CANCEL_TEXT.done}
            </p>
          )}
          {error && (
            <Alert variant="destructive" title="The release was not cancelled">
              <p>{error}</p>
            </Alert>
          )}
        </CardContent>
      </section>
    </Card>
  );
}

const INACTIVITY_CHOICES: { value: TInactivityMonths | null; label: string }[] = [
  { value: null, label: 'Off' },
  ...INACTIVITY_MONTHS.map((months) => ({ value: months, label: `${months} months` })),
];

interface InactivityChoiceProps {
  value: TInactivityMonths | null;
  onChange: (value: TInactivityMonths | null) => void;
}

/** How long without a sign-in before the reminders start, or off. */
function InactivityChoice({ value, onChange }: InactivityChoiceProps) {
  const inactivityId = useId();
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={`${inactivityId}-hint`}>
      <legend className="mb-1 text-base font-semibold">Inactivity check</legend>
      <p id={`${inactivityId}-hint`} className="mb-2 text-base text-muted-foreground">
        If you do not sign in for this long, we email you reminders. If you still do not answer,
        your next of kin is told and may ask to release your legacy.
      </p>
      <div className="grid gap-2 sm:grid-cols-4">
        {INACTIVITY_CHOICES.map((choice) => {
          const isChosen = value === choice.value;
          return (
            <label
              key={choice.label}
              className={cn(
                'flex min-h-12 cursor-pointer items-center gap-3 rounded-lg border-2 px-4 py-2',
                isChosen ? 'border-primary/50 bg-primary-soft' : 'border-border bg-card',
              )}
            >
              <input
                type="radio"
                name={inactivityId}
                checked={isChosen}
                onChange={() => onChange(choice.value)}
                className="size-6 shrink-0 accent-primary"
              />
              {choice.label}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

function SettingsForm({ settings }: { settings: TLegacySettings }) {
  const queryClient = useQueryClient();
  const [waitingDays, setWaitingDays] = useState(String(settings.waitingDays));
  const [inactivityMonths, setInactivityMonths] = useState(settings.inactivityMonths);
  const [showWaitingMessages, setShowWaitingMessages] = useState(settings.showWaitingMessages);
  const [daysError, setDaysError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  async function onSave() {
    if (isSaving) return;
    const days = Number(waitingDays);
    if (
      !Number.isInteger(days) ||
      days < LEGACY_WAITING_DAYS.min ||
      days > LEGACY_WAITING_DAYS.max
    ) {
      setDaysError(LEGACY_MESSAGES.waitingDays);
      return;
    }
    setDaysError(null);
    setSaveError(null);
    setIsSaving(true);
    try {
      const next = await saveLegacySettings({
        waitingDays: days,
        inactivityMonths,
        showWaitingMessages,
      });
      queryClient.setQueryData(LEGACY_QUERY_KEY, next);
      toast({ variant: 'success', title: 'Legacy release settings saved' });
    } catch (reason) {
      setSaveError(describeError(reason, 'Please try again.'));
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <Card asChild>
      <section aria-labelledby="settings-heading">
        <CardHeader>
          <h2 id="settings-heading" className="flex items-center gap-3 text-2xl font-bold">
            <Settings2 className="size-6 text-primary" aria-hidden="true" />
            Your settings
          </h2>
          <CardDescription>These can be changed only on your primary device.</CardDescription>
        </CardHeader>
        <CardContent>
          <form
            className="flex flex-col gap-6 text-lg"
            onSubmit={(event) => {
              event.preventDefault();
              void onSave();
            }}
          >
            <FormField
              label="Waiting period in days"
              type="number"
              inputMode="numeric"
              min={LEGACY_WAITING_DAYS.min}
              max={LEGACY_WAITING_DAYS.max}
              step={1}
              value={waitingDays}
              onChange={(event) => setWaitingDays(event.target.value)}
              hint={`How long you have to cancel after your next of kin asks: ${LEGACY_WAITING_DAYS.min} to ${LEGACY_WAITING_DAYS.max} days. You are emailed at once, halfway through and the day before.`}
              error={daysError ?? undefined}
              className="max-w-sm"
            />

            <InactivityChoice value={inactivityMonths} onChange={setInactivityMonths} />

            <div className="flex flex-col gap-2">
              <CheckboxField checked={showWaitingMessages} onCheckedChange={setShowWaitingMessages}>
                {SHOW_WAITING_LABEL}
              </CheckboxField>
              <p className="text-base text-muted-foreground">
                They see that a message from you is waiting and when it opens, never what it says.
              </p>
            </div>

            {saveError && (
              <Alert variant="destructive" title="Your settings were not saved">
                <p>{saveError}</p>
              </Alert>
            )}
            <div>
              <Button type="submit" size="lg" aria-disabled={isSaving || undefined}>
                {isSaving ? 'Saving...' : 'Save'}
              </Button>
            </div>
          </form>
        </CardContent>
      </section>
    </Card>
  );
}
