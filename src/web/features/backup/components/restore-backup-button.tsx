import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import type { TUser } from '@shared/schemas/auth';
import type { TRecipientList } from '@shared/schemas/recipients';
import { Alert } from '@web/components/ui/alert';
import { Button, type ButtonProps } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { RECIPIENTS_QUERY_KEY } from '@web/features/recipients';
import { indexVideo, VIDEO_INDEX_QUERY_KEY } from '@web/features/videos';
import { describeError } from '@web/lib/api-client';
import type { TBackupErrorCode } from '../backup-manifest';
import type { TRestoreResult } from '../restore-backup';
import { useWarnBeforeLeaving } from '../use-warn-before-leaving';
import { ByteProgressBar, startByteProgress, type TByteProgressState } from './progress-bar';

type TState =
  | { step: 'idle' }
  | { step: 'passphrase'; file: File; fileName: string; hint: string | null; error: string | null }
  | { step: 'working'; fileName: string; progress: TByteProgressState }
  | { step: 'done'; fileName: string; result: TRestoreResult; lines: string[] }
  | { step: 'failed'; fileName: string; code: TBackupErrorCode | null; message: string };

const FAILURE_TITLES: Partial<Record<TBackupErrorCode, string>> = {
  not_backup: 'Please choose a different file',
  damaged: 'This backup file is damaged',
  other_account: 'This backup is for another account',
  profile_only: 'There are no videos in this backup',
  newer_version: 'This backup is from a newer Memento',
  no_space: 'This device is out of space',
};

const backupDateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });

function hasProblems(result: TRestoreResult): boolean {
  return result.damagedTitles.length > 0 || result.withoutRecipient.length > 0;
}

/**
 * The restore flow: a hidden file picker, then a dialog with the progress and a plain result.
 * Restores onto the signed-in account only: a backup never moves videos between accounts.
 * `restoreUi` must stay mounted for the whole restore, so a caller that hides itself once the
 * videos are back (the missing-videos warning) keeps rendering it.
 */
export function useRestoreBackup(user: TUser) {
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<TState>({ step: 'idle' });
  const [passphrase, setPassphrase] = useState('');
  // The hint is shown again after a wrong passphrase; the working state in between drops it.
  const [lastHint, setHint] = useState<string | null>(null);
  const isWorking = state.step === 'working';
  useWarnBeforeLeaving(isWorking);

  async function readRecipientIds(): Promise<Set<number> | null> {
    try {
      const list = await queryClient.fetchQuery<TRecipientList>({
        queryKey: RECIPIENTS_QUERY_KEY,
        staleTime: 0,
      });
      return new Set(list.recipients.map((recipient) => recipient.id));
    } catch {
      // Offline: the videos are still restored; the index is told when the server answers.
      return null;
    }
  }

  async function restore(file: File, sealedWith: string | null = null) {
    const progress = { doneBytes: 0, totalBytes: 0, elapsedMs: 0 };
    setState({ step: 'working', fileName: file.name, progress });
    // The reader of backup files (and its checks of their contents) loads with the first restore,
    // not with every page that offers one.
    const restoring = import('../restore-backup');
    try {
      const { describeRestoreResult, restoreBackup } = await restoring;
      const result = await restoreBackup({
        file,
        passphrase: sealedWith,
        account: user,
        recipientIds: await readRecipientIds(),
        indexVideo,
        onProgress: startByteProgress((next) =>
          setState({ step: 'working', fileName: file.name, progress: next }),
        ),
      });
      setPassphrase('');
      setState({ step: 'done', fileName: file.name, result, lines: describeRestoreResult(result) });
    } catch (error) {
      const { BackupError } = await import('../backup-manifest').catch(() => ({
        BackupError: null,
      }));
      const { PassphraseNeededError } = await restoring.catch(() => ({
        PassphraseNeededError: null,
      }));
      if (PassphraseNeededError && error instanceof PassphraseNeededError) {
        setState({ step: 'passphrase', file, fileName: file.name, hint: error.hint, error: null });
        return;
      }
      if (BackupError && error instanceof BackupError && error.code === 'wrong_passphrase') {
        setState((previous) => ({
          step: 'passphrase',
          file,
          fileName: file.name,
          hint: previous.step === 'passphrase' ? previous.hint : lastHint,
          error: error.message,
        }));
        return;
      }
      setPassphrase('');
      setState({
        step: 'failed',
        fileName: file.name,
        code: BackupError && error instanceof BackupError ? error.code : null,
        message: describeError(error, 'The backup could not be restored.'),
      });
    } finally {
      await queryClient.invalidateQueries({ queryKey: VIDEO_INDEX_QUERY_KEY });
      await queryClient.invalidateQueries({ queryKey: RECIPIENTS_QUERY_KEY });
    }
  }

  function submitPassphrase(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state.step !== 'passphrase') return;
    if (!passphrase) {
      setState({ ...state, error: 'Please type the passphrase this backup was protected with.' });
      return;
    }
    setHint(state.hint);
    void restore(state.file, passphrase);
  }

  function onFileChosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again still counts as a choice.
    event.target.value = '';
    if (file) void restore(file);
  }

  function close(isOpen: boolean) {
    if (isOpen || isWorking) return;
    setPassphrase('');
    setState({ step: 'idle' });
  }

  const chooseFile = () => inputRef.current?.click();

  const restoreUi = (
    <>
      <input
        ref={inputRef}
        type="file"
        accept=".zip,application/zip"
        className="hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={onFileChosen}
      />
      <Dialog open={state.step !== 'idle'} onOpenChange={close}>
        <DialogContent
          hideClose={isWorking}
          onEscapeKeyDown={(event) => isWorking && event.preventDefault()}
          onInteractOutside={(event) => isWorking && event.preventDefault()}
        >
          <DialogHeader>
            <DialogTitle>Restore from Backup</DialogTitle>
            {state.step !== 'idle' && (
              <DialogDescription className="break-words">
                From {state.fileName}
                {state.step === 'done' &&
                  `, made on ${backupDateFormat.format(new Date(state.result.backupCreatedAt))}`}
              </DialogDescription>
            )}
          </DialogHeader>

          {state.step === 'passphrase' && (
            <form className="flex flex-col gap-5" onSubmit={submitPassphrase} noValidate>
              <p className="text-lg">
                This backup is protected with a passphrase. Please type it to restore your videos.
              </p>
              {state.hint && (
                <p className="text-lg" data-testid="passphrase-hint">
                  Your hint: <strong className="break-words">{state.hint}</strong>
                </p>
              )}
              <FormField
                label="Passphrase"
                type="password"
                autoComplete="off"
                autoFocus
                value={passphrase}
                onChange={(event) => setPassphrase(event.target.value)}
                error={state.error ?? undefined}
              />
              <DialogFooter>
                <Button type="button" variant="outline" onClick={() => close(false)}>
                  Cancel
                </Button>
                <Button type="submit">Restore</Button>
              </DialogFooter>
            </form>
          )}

          {state.step === 'working' && (
            <>
              <ByteProgressBar label="Restoring your videos" progress={state.progress} />
              <p className="text-lg">Please keep this page open until the restore is finished.</p>
            </>
          )}

          {state.step === 'done' && (
            <Alert
              variant={hasProblems(state.result) ? 'warm' : 'success'}
              title="Restore finished"
              data-testid="restore-result"
            >
              {state.lines.map((line) => (
                <p key={line}>{line}</p>
              ))}
            </Alert>
          )}

          {state.step === 'failed' && (
            <Alert
              variant={state.code === 'profile_only' ? 'warm' : 'destructive'}
              title={
                (state.code && FAILURE_TITLES[state.code]) ?? 'The backup could not be restored'
              }
            >
              <p>{state.message}</p>
            </Alert>
          )}

          {!isWorking && state.step !== 'passphrase' && (
            <DialogFooter>
              {state.step === 'failed' && (
                <Button variant="outline" onClick={chooseFile}>
                  Choose Another File
                </Button>
              )}
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          )}
        </DialogContent>
      </Dialog>
    </>
  );

  return { chooseFile, isWorking, restoreUi };
}

interface RestoreBackupButtonProps {
  user: TUser;
  variant?: ButtonProps['variant'];
}

/** 'Restore from Backup' with its own picker and dialog. */
export function RestoreBackupButton({ user, variant = 'outline' }: RestoreBackupButtonProps) {
  const { chooseFile, isWorking, restoreUi } = useRestoreBackup(user);
  return (
    <>
      <Button variant={variant} onClick={chooseFile} disabled={isWorking}>
        <Upload aria-hidden="true" />
        Restore from Backup
      </Button>
      {restoreUi}
    </>
  );
}
