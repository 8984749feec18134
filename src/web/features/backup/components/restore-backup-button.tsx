import { lazy, Suspense, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import type { TUser } from '@shared/schemas/auth';
import type { TRecipientList } from '@shared/schemas/recipients';
import { Button, type ButtonProps } from '@web/components/ui/button';
import { RECIPIENTS_QUERY_KEY } from '@web/lib/recipients-api';
import { indexVideo, VIDEO_INDEX_QUERY_KEY } from '@web/lib/videos/videos-api';
import { describeError } from '@web/lib/api-client';
import type { TBackupErrorCode } from '../backup-manifest';
import { useWarnBeforeLeaving } from '../use-warn-before-leaving';
import { startByteProgress } from './progress-bar';
import type { TRestoreState } from './restore-state';

// The dialog (and the form parts it brings) loads when a file has been chosen, not with the
// dashboard.
const RestoreDialog = lazy(() => import('./restore-dialog'));

/** The account's recipients as the server has them now; null offline. */
async function readRecipientIds(queryClient: QueryClient): Promise<Set<number> | null> {
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

type TRestoreFailure =
  | { kind: 'needs-passphrase'; hint: string | null }
  | { kind: 'wrong-passphrase'; message: string }
  | { kind: 'failed'; code: TBackupErrorCode | null; message: string };

/**
 * Why a restore stopped. The error classes live in the reader's modules, which load with the
 * restore: if they could not load, the error is a plain failure.
 */
async function readRestoreFailure(
  error: unknown,
  restoring: Promise<typeof import('../restore-backup')>,
): Promise<TRestoreFailure> {
  const { BackupError } = await import('../backup-manifest').catch(() => ({
    BackupError: null,
  }));
  const { PassphraseNeededError } = await restoring.catch(() => ({
    PassphraseNeededError: null,
  }));
  if (PassphraseNeededError && error instanceof PassphraseNeededError) {
    return { kind: 'needs-passphrase', hint: error.hint };
  }
  if (BackupError && error instanceof BackupError && error.code === 'wrong_passphrase') {
    return { kind: 'wrong-passphrase', message: error.message };
  }
  return {
    kind: 'failed',
    code: BackupError && error instanceof BackupError ? error.code : null,
    message: describeError(error, 'The backup could not be restored.'),
  };
}

/** Where the dialog goes after a failed restore of `file`; `shownHint` is the hint shown last. */
function stateAfterFailure(
  failure: TRestoreFailure,
  file: File,
  shownHint: string | null,
): TRestoreState {
  const fileName = file.name;
  switch (failure.kind) {
    case 'needs-passphrase':
      return { step: 'passphrase', file, fileName, hint: failure.hint, error: null };
    case 'wrong-passphrase':
      return { step: 'passphrase', file, fileName, hint: shownHint, error: failure.message };
    case 'failed':
      return { step: 'failed', fileName, code: failure.code, message: failure.message };
  }
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
  const [state, setState] = useState<TRestoreState>({ step: 'idle' });
  const [passphrase, setPassphrase] = useState('');
  // The hint is shown again after a wrong passphrase; the working state in between drops it.
  const [lastHint, setHint] = useState<string | null>(null);
  const isWorking = state.step === 'working';
  useWarnBeforeLeaving(isWorking);

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
        recipientIds: await readRecipientIds(queryClient),
        indexVideo,
        onProgress: startByteProgress((next) =>
          setState({ step: 'working', fileName: file.name, progress: next }),
        ),
      });
      setPassphrase('');
      setState({ step: 'done', fileName: file.name, result, lines: describeRestoreResult(result) });
    } catch (error) {
      const failure = await readRestoreFailure(error, restoring);
      if (failure.kind === 'failed') setPassphrase('');
      setState((previous) =>
        stateAfterFailure(failure, file, previous.step === 'passphrase' ? previous.hint : lastHint),
      );
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
      {state.step !== 'idle' && (
        <Suspense fallback={null}>
          <RestoreDialog
            state={state}
            passphrase={passphrase}
            onPassphraseChange={setPassphrase}
            onSubmitPassphrase={submitPassphrase}
            onClose={() => close(false)}
            onOpenChange={close}
            onChooseFile={chooseFile}
          />
        </Suspense>
      )}
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
