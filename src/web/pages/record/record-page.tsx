import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { MESSAGES } from '@shared/domain/errors';
import { BackHomeLink } from '@web/components/back-home-link';
import { Alert } from '@web/components/ui/alert';
import { RecoveryPanel } from '@web/features/recorder/components/recovery-panel';
import { useRecorder } from '@web/features/recorder/use-recorder';
import { RecipientsLoadState } from '@web/features/recipients/components/recipients-load-state';
import { OFFLINE_MESSAGES } from '@web/features/offline/offline-messages';
import { isPrimaryUser } from '@web/lib/auth-api';
import { useAuth } from '@web/lib/auth-provider';
import { useRecipients } from '@web/lib/recipients-api';
import { usePageTitle } from '@web/lib/use-page-title';
import type { TDraftRecording } from '@web/lib/videos/local-store';
import { useCareTeamChoice } from '../care-home/care-team-choice';
import { MessageDetails } from './message-details';
import { RecordSection } from './record-section';
import { useMessageDetails } from './use-message-details';
import { useSaveMessage } from './use-save-message';

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
  const { data, isLoading, error, refetch, fetchStatus } = useRecipients();
  const recipients = data?.recipients ?? [];
  const maxSeconds = data?.maxRecordingSeconds ?? 60;
  const details = useMessageDetails(recipients, parseRecipientParam(searchParams.get('recipient')));
  const careTeam = useCareTeamChoice();
  const saving = useSaveMessage(userId, details, careTeam);
  const { save, isSaving } = saving;
  const recorder = useRecorder({ maxSeconds });
  const recordSectionRef = useRef<HTMLElement>(null);
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

  function onTurnOnCamera() {
    if (!details.requireDetails()) return;
    void recorder.enableCamera();
    // On a phone the camera sits below the form: bring it, the timer and the buttons into view.
    const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    recordSectionRef.current?.scrollIntoView({
      behavior: reduceMotion ? 'auto' : 'smooth',
      block: 'start',
    });
  }

  function onStart() {
    const { recipient, title, promptId } = details;
    if (!details.requireDetails() || !recipient) return;
    recorder.start({ creatorId: userId, recipientId: recipient.id, title: title.trim(), promptId });
  }

  async function onRecover(draft: TDraftRecording) {
    details.fillFrom(draft);
    await recorder.recover(draft);
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
        <MessageDetails
          details={details}
          recipients={recipients}
          careTeam={careTeam}
          isLocked={isLocked && recorder.status !== 'recorded'}
          isSaving={isSaving}
        />
      )}

      {data && (
        <RecordSection
          ref={recordSectionRef}
          recorder={recorder}
          maxSeconds={maxSeconds}
          isReady={details.isReady}
          onTurnOnCamera={onTurnOnCamera}
          onStart={onStart}
          onSave={() => void save(recorder.recording)}
          saving={saving}
        />
      )}
    </div>
  );
}
