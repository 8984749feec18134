import type { FormEvent } from 'react';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import type { TBackupErrorCode } from '../backup-manifest';
import { ByteProgressBar } from './progress-bar';
import type { TRestoreResult } from '../restore-backup';
import type { TRestoreState } from './restore-state';
import { lazyDateFormat } from '@web/lib/date-format';

const FAILURE_TITLES: Partial<Record<TBackupErrorCode, string>> = {
  not_backup: 'Please choose a different file',
  damaged: 'This backup file is damaged',
  other_account: 'This backup is for another account',
  profile_only: 'There are no videos in this backup',
  newer_version: 'This backup is from a newer Memento',
  no_space: 'This device is out of space',
};

const backupDateFormat = lazyDateFormat(undefined, { dateStyle: 'long' });

function hasProblems(result: TRestoreResult): boolean {
  return result.damagedTitles.length > 0 || result.withoutRecipient.length > 0;
}

interface RestoreDialogProps {
  state: Exclude<TRestoreState, { step: 'idle' }>;
  passphrase: string;
  onPassphraseChange: (passphrase: string) => void;
  onSubmitPassphrase: (event: FormEvent<HTMLFormElement>) => void;
  onClose: () => void;
  onOpenChange: (open: boolean) => void;
  onChooseFile: () => void;
}

/** The restore's dialog: the passphrase if the backup is sealed, the progress, a plain result. */
export default function RestoreDialog({
  state,
  passphrase,
  onPassphraseChange,
  onSubmitPassphrase,
  onClose,
  onOpenChange,
  onChooseFile,
}: RestoreDialogProps) {
  const isWorking = state.step === 'working';
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        hideClose={isWorking}
        onEscapeKeyDown={(event) => isWorking && event.preventDefault()}
        onInteractOutside={(event) => isWorking && event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>Restore from Backup</DialogTitle>
          <DialogDescription className="break-words">
            From {state.fileName}
            {state.step === 'done' &&
              `, made on ${backupDateFormat.format(new Date(state.result.backupCreatedAt))}`}
          </DialogDescription>
        </DialogHeader>

        {state.step === 'passphrase' && (
          <form className="flex flex-col gap-5" onSubmit={onSubmitPassphrase} noValidate>
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
              onChange={(event) => onPassphraseChange(event.target.value)}
              error={state.error ?? undefined}
            />
            <DialogFooter>
              <Button type="button" variant="outline" onClick={onClose}>
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
            title={(state.code && FAILURE_TITLES[state.code]) ?? 'The backup could not be restored'}
          >
            <p>{state.message}</p>
          </Alert>
        )}

        {!isWorking && state.step !== 'passphrase' && (
          <DialogFooter>
            {state.step === 'failed' && (
              <Button variant="outline" onClick={onChooseFile}>
                Choose Another File
              </Button>
            )}
            <Button onClick={onClose}>Done</Button>
          </DialogFooter>
        )}
      </DialogContent>
    </Dialog>
  );
}
