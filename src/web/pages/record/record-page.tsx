import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Lightbulb, UserPlus } from 'lucide-react';
import { MESSAGES } from '@shared/domain/errors';
import type { TRecipient } from '@shared/schemas/recipients';
import { isPrimaryUser } from '@web/lib/auth-api';
import { BackHomeLink } from '@web/components/back-home-link';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { Label } from '@web/components/ui/label';
import { toast } from '@web/components/ui/use-toast';
import { useAuth } from '@web/lib/auth-provider';
import { RECIPIENTS_QUERY_KEY, usePrompts, useRecipients } from '@web/lib/recipients-api';
import { NOW_DRAFT, readDraft, type TReleaseDraft } from '@web/features/legacy/release-wording';
import { ReleaseChoice } from '@web/features/legacy/components/release-choice';
import { RecorderPanel } from '@web/features/recorder/components/recorder-panel';
import { RecoveryPanel } from '@web/features/recorder/components/recovery-panel';
import { describeSeconds } from '@web/lib/video-format';
import { useRecorder } from '@web/features/recorder/use-recorder';
import type { TDraftRecording } from '@web/lib/videos/local-store';
import { saveRecording } from '@web/features/videos/save-recording';
import { VIDEO_INDEX_QUERY_KEY } from '@web/lib/videos/videos-api';
import { describeError } from '@web/lib/api-client';
import { RecipientsLoadState } from '@web/features/recipients/components/recipients-load-state';
import { usePageTitle } from '@web/lib/use-page-title';
import { OFFLINE_MESSAGES } from '@web/features/offline/offline-messages';

/** After a successful save the person goes home after 1000 ms, time to see it saved. */
const NAVIGATE_AFTER_SAVE_MS = 1000;

const selectClass =
  'min-h-12 w-full rounded-lg border-2 border-input bg-card px-3 text-lg text-foreground aria-[invalid=true]:border-destructive';

const FIELD_MESSAGES = {
  title: 'Please give your message a title',
  recipient: 'Please choose who this message is for',
} as const;

export default function RecordPage() {
  usePageTitle('Record a Message');
  const { user } = useAuth();
  if (!user) return null;
  if (!isPrimaryUser(user)) {
    return (
      <div className="mx-auto w-full max-w-3xl">
        <Alert variant="warm" title="Record a Message">
          <p>{MESSAGES.primaryOnlyRecord}</p>
        </Alert>
      </div>
    );
  }
  return <MessageRecorder userId={user.id} />;
}

function parseRecipientParam(value: string | null): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
}

function MessageRecorder({ userId }: { userId: number }) {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data, isLoading, error, refetch, fetchStatus } = useRecipients();
  const recipients = data?.recipients ?? [];
  const maxSeconds = data?.maxRecordingSeconds ?? 60;

  const [title, setTitle] = useState('');
  const [recipientId, setRecipientId] = useState<number | null>(() =>
    parseRecipientParam(searchParams.get('recipient')),
  );
  const [promptId, setPromptId] = useState<string | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  const [isSaving, setIsSaving] = useState(false);
  const [isSaved, setIsSaved] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [release, setRelease] = useState<TReleaseDraft>(NOW_DRAFT);
  const [releaseError, setReleaseError] = useState<string | null>(null);
  const recorder = useRecorder({ maxSeconds });
  const recordSectionRef = useRef<HTMLElement>(null);
  // A preselected id that is not one of this person's recipients (an old link) selects nobody.
  const recipient = recipients.find((r) => r.id === recipientId) ?? null;
  const { data: prompts } = usePrompts(recipient?.id ?? null);
  const prompt = prompts?.find((p) => p.id === promptId) ?? null;
  const isLocked = recorder.status !== 'idle' && recorder.status !== 'ready';
  const hasUnsavedWork =
    !isSaving && ['countdown', 'recording', 'stopping', 'recorded'].includes(recorder.status);

  // Leaving mid-recording: the draft is safe in IndexedDB, but say so before the page goes.
  useEffect(() => {
    if (!hasUnsavedWork) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [hasUnsavedWork]);

  const titleError = showErrors && !title.trim() ? FIELD_MESSAGES.title : undefined;
  const recipientError = showErrors && !recipient ? FIELD_MESSAGES.recipient : undefined;
  const isReady = title.trim() !== '' && recipient !== null;

  function requireDetails(): boolean {
    setShowErrors(true);
    return isReady;
  }

  function onTurnOnCamera() {
    if (!requireDetails()) return;
    void recorder.enableCamera();
    // On a phone the camera sits below the form: bring it, the timer and the buttons into view.
    const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    recordSectionRef.current?.scrollIntoView({
      behavior: reduceMotion ? 'auto' : 'smooth',
      block: 'start',
    });
  }

  function onStart() {
    if (!requireDetails() || !recipient) return;
    recorder.start({ creatorId: userId, recipientId: recipient.id, title: title.trim(), promptId });
  }

  async function onRecover(draft: TDraftRecording) {
    setTitle(draft.title);
    setRecipientId(draft.recipientId);
    setPromptId(draft.promptId);
    await recorder.recover(draft);
  }

  async function onSave() {
    const recording = recorder.recording;
    if (!recording || !requireDetails() || !recipient) return;
    const chosen = readDraft(release);
    setReleaseError(chosen.error);
    if (!chosen.release) return;
    setIsSaving(true);
    setSaveError(null);
    try {
      const { isIndexed } = await saveRecording({
        id: recording.draftId,
        creatorId: userId,
        recipientId: recipient.id,
        title: title.trim(),
        promptId,
        blob: recording.blob,
        durationMs: recording.durationMs,
        isMobile: /Mobi|Android|iPhone|iPad/i.test(navigator.userAgent),
        release: chosen.release,
      });
      void queryClient.invalidateQueries({ queryKey: VIDEO_INDEX_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: RECIPIENTS_QUERY_KEY });
      toast({
        variant: 'success',
        title: 'Video saved',
        description: isIndexed
          ? `Your message for ${recipient.firstName} is kept safely on this device.`
          : `Your message for ${recipient.firstName} is kept safely on this device. Your account will be told about it when you are back online.`,
      });
      setIsSaved(true);
      setTimeout(() => navigate('/'), NAVIGATE_AFTER_SAVE_MS);
    } catch (reason) {
      const message = describeError(reason, 'Failed to save video: please try again.');
      setSaveError(message);
      setIsSaving(false);
      toast({ variant: 'destructive', title: 'Your video was not saved', description: message });
    }
  }

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <BackHomeLink />
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Record a Message</h1>
        <p className="text-lg text-muted-foreground">
          Take your time. You can watch your recording before you save it, and record again as often
          as you like.
        </p>
      </div>

      {recorder.status === 'idle' && !recorder.recording && (
        <RecoveryPanel
          creatorId={userId}
          recipients={recipients}
          onRecover={(draft) => void onRecover(draft)}
        />
      )}

      <RecipientsLoadState isLoading={isLoading} error={error} onRetry={() => void refetch()} />
      {/* Offline, with no recipients kept from an earlier visit: nothing to record for yet. */}
      {!data && fetchStatus === 'paused' && (
        <Alert variant="warm" kind="note" title={OFFLINE_MESSAGES.needsConnection} />
      )}

      {data && (
        <section aria-labelledby="details-heading" className="flex flex-col gap-5">
          <h2 id="details-heading" className="text-2xl font-bold tracking-tight">
            1. About your message
          </h2>
          <FormField
            label="Message title"
            isRequired
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            maxLength={200}
            placeholder="For example: Happy birthday, Tom"
            disabled={isLocked && recorder.status !== 'recorded'}
            error={titleError}
          />
          <RecipientSelect
            recipients={recipients}
            value={recipient?.id ?? null}
            onChange={(id) => {
              setRecipientId(id);
              setPromptId(null);
            }}
            disabled={isLocked && recorder.status !== 'recorded'}
            error={recipientError}
          />
          {recipient && (
            <PromptSelect
              prompts={prompts ?? []}
              value={promptId}
              onChange={setPromptId}
              disabled={isLocked && recorder.status !== 'recorded'}
            />
          )}
          {prompt && (
            <aside
              aria-label="Your prompt"
              className="flex gap-3 rounded-xl border-2 border-primary/25 bg-primary-soft p-4"
            >
              <Lightbulb className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
              <div className="flex flex-col gap-1">
                <p className="text-lg font-bold">{prompt.title}</p>
                <p className="text-lg">{prompt.description}</p>
              </div>
            </aside>
          )}
          <ReleaseChoice
            value={release}
            onChange={(next) => {
              setRelease(next);
              setReleaseError(null);
            }}
            error={releaseError}
            disabled={isSaving}
          />
        </section>
      )}

      {data && (
        <section
          ref={recordSectionRef}
          aria-labelledby="record-heading"
          className="flex scroll-mt-24 flex-col gap-4"
        >
          <div className="flex flex-col gap-1">
            <h2 id="record-heading" className="text-2xl font-bold tracking-tight">
              2. Record
            </h2>
            <p className="text-base text-muted-foreground">
              {isReady
                ? `Recordings can be up to ${describeSeconds(maxSeconds)} long. A countdown of 3 seconds comes before the recording starts.`
                : 'Give your message a title and choose who it is for, then turn on your camera.'}
            </p>
          </div>
          <RecorderPanel
            recorder={recorder}
            maxSeconds={maxSeconds}
            onTurnOnCamera={onTurnOnCamera}
            onStart={onStart}
            onSave={() => void onSave()}
            isSaving={isSaving}
            isSaved={isSaved}
          />
          {saveError && (
            <Alert variant="destructive" title="Your video was not saved">
              <p>{saveError}</p>
              <p>Your recording is still here. Please press Save Message again.</p>
            </Alert>
          )}
        </section>
      )}
    </div>
  );
}

interface RecipientSelectProps {
  recipients: TRecipient[];
  value: number | null;
  onChange: (id: number | null) => void;
  disabled: boolean;
  error: string | undefined;
}

function RecipientSelect({ recipients, value, onChange, disabled, error }: RecipientSelectProps) {
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

function PromptSelect({ prompts, value, onChange, disabled }: PromptSelectProps) {
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
