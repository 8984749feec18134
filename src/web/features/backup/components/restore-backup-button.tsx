import { useRef, useState, type ChangeEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import type { TUser } from '@shared/schemas/auth';
import type { TRecipientList } from '@shared/schemas/recipients';
import { Alert } from '@web/components/ui/alert';
import { Button, type ButtonProps } from '@web/components/ui/button';
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
import { ProgressBar } from './progress-bar';

type TState =
  | { step: 'idle' }
  | { step: 'working'; fileName: string; fraction: number }
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
 * Restores onto the signed-in account only (decision 016). `restoreUi` must stay mounted for the
 * whole restore, so a caller that hides itself once the videos are back (the missing-videos
 * warning) keeps rendering it.
 */
export function useRestoreBackup(user: TUser) {
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<TState>({ step: 'idle' });
  const isWorking = state.step === 'working';

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

  async function restore(file: File) {
    setState({ step: 'working', fileName: file.name, fraction: 0 });
    // The reader of backup files (and its checks of their contents) loads with the first restore,
    // not with every page that offers one.
    const restoring = import('../restore-backup');
    try {
      const { describeRestoreResult, restoreBackup } = await restoring;
      const result = await restoreBackup({
        file,
        account: user,
        recipientIds: await readRecipientIds(),
        indexVideo,
        onProgress: (fraction) => setState({ step: 'working', fileName: file.name, fraction }),
      });
      setState({ step: 'done', fileName: file.name, result, lines: describeRestoreResult(result) });
    } catch (error) {
      const { BackupError } = await import('../backup-manifest').catch(() => ({
        BackupError: null,
      }));
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

  function onFileChosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again still counts as a choice.
    event.target.value = '';
    if (file) void restore(file);
  }

  function close(isOpen: boolean) {
    if (isOpen || isWorking) return;
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

          {state.step === 'working' && (
            <ProgressBar label="Restoring your videos" fraction={state.fraction} />
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

          {!isWorking && (
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
