import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { Download } from 'lucide-react';
import type { TUser } from '@shared/schemas/auth';
import type { TRecipientList } from '@shared/schemas/recipients';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { RECIPIENTS_QUERY_KEY } from '@web/features/recipients';
import { listVideos } from '@web/features/videos';
import { describeError } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { makeBackupFileName, type TBackupType } from '../backup-manifest';
import { createBackup } from '../create-backup';
import { downloadFile } from '../download-file';
import { chooseSaveTarget } from '../save-target';
import { useWarnBeforeLeaving } from '../use-warn-before-leaving';
import { formatBytes } from '@web/lib/format-bytes';
import {
  checkPassphrase,
  hasPassphraseErrors,
  NO_PASSPHRASE,
  PassphraseFields,
  type TPassphraseChoice,
} from './passphrase-fields';
import { ByteProgressBar, startByteProgress, type TByteProgressState } from './progress-bar';

const CHOICES: { type: TBackupType; label: string; description: string }[] = [
  {
    type: 'full_backup',
    label: 'Full backup',
    description: 'Everything: your videos, account details and recipients.',
  },
  {
    type: 'videos_only',
    label: 'Videos only',
    description: 'Just your videos.',
  },
  {
    type: 'profile_only',
    label: 'Profile only',
    description: 'Your account details and recipients, without videos.',
  },
];

const RECIPIENTS_UNREACHABLE =
  'Memento could not reach the server to read your recipients. Please check your internet connection and try again, or choose "Videos only".';

type TState =
  | { step: 'choose' }
  | { step: 'working'; progress: TByteProgressState }
  | { step: 'done'; fileName: string; videoCount: number; isSaved: boolean; isSealed: boolean }
  | { step: 'failed'; message: string };

interface DownloadBackupDialogProps {
  user: TUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const plural = (count: number) => `${count} video${count === 1 ? '' : 's'}`;

/** 'Download Backup': choose one of the three types, watch it being made, keep it. */
export function DownloadBackupDialog({ user, open, onOpenChange }: DownloadBackupDialogProps) {
  const queryClient = useQueryClient();
  const [type, setType] = useState<TBackupType>('full_backup');
  const [state, setState] = useState<TState>({ step: 'choose' });
  const [seal, setSeal] = useState<TPassphraseChoice>(NO_PASSPHRASE);
  const [showSealErrors, setShowSealErrors] = useState(false);
  const videos = useLiveQuery(() => listVideos(user.id), [user.id]);
  const totalBytes = (videos ?? []).reduce((sum, video) => sum + video.byteSize, 0);
  const isWorking = state.step === 'working';
  const sealErrors = checkPassphrase(seal);
  useWarnBeforeLeaving(isWorking);

  function close(isOpen: boolean) {
    if (isOpen || isWorking) return;
    onOpenChange(false);
    setState({ step: 'choose' });
    // The passphrase is not kept once the dialog is closed.
    setSeal(NO_PASSPHRASE);
    setShowSealErrors(false);
  }

  async function readRecipients(): Promise<TRecipientList['recipients']> {
    try {
      const list = await queryClient.fetchQuery<TRecipientList>({
        queryKey: RECIPIENTS_QUERY_KEY,
        staleTime: 0,
      });
      return list.recipients;
    } catch (error) {
      // A videos-only backup can do without names; the others carry the recipients list.
      const cached = queryClient.getQueryData<TRecipientList>(RECIPIENTS_QUERY_KEY);
      if (cached) return cached.recipients;
      if (type === 'videos_only') return [];
      throw new Error(RECIPIENTS_UNREACHABLE, { cause: error });
    }
  }

  async function makeBackup() {
    if (hasPassphraseErrors(sealErrors)) {
      setShowSealErrors(true);
      return;
    }
    const now = new Date();
    // First, while the click still counts: the save picker needs it.
    const target = await chooseSaveTarget(makeBackupFileName(user.username, type, now));
    if (target === 'cancelled') return;
    const progress = { doneBytes: 0, totalBytes, elapsedMs: 0 };
    setState({ step: 'working', progress });
    try {
      const recipients = await readRecipients();
      const backup = await createBackup({
        type,
        account: user,
        recipients,
        now,
        passphrase: seal.isOn ? seal.passphrase : null,
        hint: seal.isOn ? seal.hint : null,
        target,
        onProgress: startByteProgress((next) => setState({ step: 'working', progress: next })),
      });
      if (backup.blob) downloadFile(backup.blob, backup.fileName);
      setState({
        step: 'done',
        fileName: backup.fileName,
        videoCount: backup.videoCount,
        isSaved: backup.blob === null,
        isSealed: seal.isOn,
      });
    } catch (error) {
      setState({ step: 'failed', message: describeError(error, 'The backup could not be made.') });
    }
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        hideClose={isWorking}
        onEscapeKeyDown={(event) => isWorking && event.preventDefault()}
        onInteractOutside={(event) => isWorking && event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>Download Backup</DialogTitle>
          <DialogDescription>A copy to keep away from this device.</DialogDescription>
        </DialogHeader>

        {state.step === 'choose' && (
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-2 text-lg font-semibold">What should the backup hold?</legend>
            {CHOICES.map((choice) => (
              <label
                key={choice.type}
                className={cn(
                  'flex min-h-14 cursor-pointer items-start gap-3 rounded-xl border-2 px-4 py-3',
                  type === choice.type ? 'border-primary bg-primary-soft' : 'border-border',
                )}
              >
                <input
                  type="radio"
                  name="backup-type"
                  value={choice.type}
                  checked={type === choice.type}
                  onChange={() => setType(choice.type)}
                  className="mt-1 size-6 shrink-0 accent-primary"
                />
                <span className="flex flex-col gap-0.5">
                  <span className="flex flex-wrap items-baseline gap-x-3">
                    <span className="text-lg font-semibold">{choice.label}</span>
                    {choice.type !== 'profile_only' && videos !== undefined && (
                      <span className="text-base text-muted-foreground">
                        {plural(videos.length)}, {formatBytes(totalBytes)}
                      </span>
                    )}
                  </span>
                  <span className="text-base text-muted-foreground">{choice.description}</span>
                </span>
              </label>
            ))}
          </fieldset>
        )}

        {(state.step === 'choose' || state.step === 'failed') && (
          <PassphraseFields
            label="Protect this backup with a passphrase"
            value={seal}
            onChange={setSeal}
            errors={showSealErrors ? sealErrors : {}}
          />
        )}

        {state.step === 'working' && (
          <>
            <ByteProgressBar label="Writing your backup" progress={state.progress} />
            <p className="text-lg">Please keep this page open until the backup is written.</p>
          </>
        )}

        {state.step === 'done' && (
          <Alert variant="success" title="Your backup is ready">
            <p>
              {state.isSaved ? 'It is saved as ' : 'It is downloading as '}
              <strong className="break-words">{state.fileName}</strong>
              {state.videoCount > 0 ? `, with ${plural(state.videoCount)}.` : '.'}
            </p>
            {state.isSealed && (
              <p>
                It is protected with your passphrase. Without it, nobody can open the backup, so
                keep the passphrase somewhere safe, apart from the file.
              </p>
            )}
            <p>
              Keep it somewhere safe, away from this device, such as on a USB stick or another
              computer.
            </p>
          </Alert>
        )}

        {state.step === 'failed' && (
          <Alert variant="destructive" title="The backup could not be made">
            <p>{state.message}</p>
          </Alert>
        )}

        {!isWorking && (
          <DialogFooter>
            {state.step === 'done' ? (
              <Button onClick={() => close(false)}>Done</Button>
            ) : (
              <>
                <Button variant="outline" onClick={() => close(false)}>
                  Cancel
                </Button>
                <Button onClick={() => void makeBackup()}>
                  <Download aria-hidden="true" />
                  {state.step === 'failed' ? 'Try Again' : 'Download'}
                </Button>
              </>
            )}
          </DialogFooter>
        )}
      </DialogContent>
    </Dialog>
  );
}
