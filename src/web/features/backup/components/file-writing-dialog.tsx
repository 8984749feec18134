import { useState, type ReactNode } from 'react';
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
import { describeError } from '@web/lib/api-client';
import { downloadFile } from '@web/lib/download-file';
import { chooseSaveTarget } from '../save-target';
import { useWarnBeforeLeaving } from '../use-warn-before-leaving';
import {
  checkPassphrase,
  hasPassphraseErrors,
  NO_PASSPHRASE,
  type TPassphraseChoice,
} from './passphrase-fields';
import { ByteProgressBar, startByteProgress, type TByteProgressState } from './progress-bar';

/** What a written file reports: a Blob to download, or null when it went to a chosen file. */
interface TWrittenFile {
  blob: Blob | null;
  fileName: string;
}

export type TWritingState<TDone> =
  | { step: 'choose' }
  | { step: 'working'; progress: TByteProgressState }
  | ({ step: 'done'; fileName: string; isSaved: boolean; isSealed: boolean } & TDone)
  | { step: 'failed'; message: string };

/** What the writer hands the code that makes the file. */
export interface TWriteInput {
  passphrase: string | null;
  hint: string | null;
  /** The chosen file, or null to build a Blob to download. */
  target: FileSystemFileHandle | null;
  onProgress: ReturnType<typeof startByteProgress>;
}

/**
 * The steps a backup and a handover share: choose (with an optional passphrase), write (the page
 * warns before closing), then done or failed. The passphrase is forgotten when the dialog closes.
 */
export function useFileWriting<TDone extends object>() {
  const [state, setState] = useState<TWritingState<TDone>>({ step: 'choose' });
  const [seal, setSeal] = useState<TPassphraseChoice>(NO_PASSPHRASE);
  const [showSealErrors, setShowSealErrors] = useState(false);
  const isWorking = state.step === 'working';
  const sealErrors = checkPassphrase(seal);
  useWarnBeforeLeaving(isWorking);

  function reset() {
    setState({ step: 'choose' });
    setSeal(NO_PASSPHRASE);
    setShowSealErrors(false);
  }

  async function write<TFile extends TWrittenFile>(input: {
    fileName: string;
    totalBytes: number;
    make: (write: TWriteInput) => Promise<TFile>;
    done: (file: TFile) => TDone;
    failure: string;
  }) {
    if (hasPassphraseErrors(sealErrors)) {
      setShowSealErrors(true);
      return;
    }
    // First, while the click still counts: the save picker needs it.
    const target = await chooseSaveTarget(input.fileName);
    if (target === 'cancelled') return;
    setState({
      step: 'working',
      progress: { doneBytes: 0, totalBytes: input.totalBytes, elapsedMs: 0 },
    });
    try {
      const file = await input.make({
        passphrase: seal.isOn ? seal.passphrase : null,
        hint: seal.isOn ? seal.hint : null,
        target,
        onProgress: startByteProgress((progress) => setState({ step: 'working', progress })),
      });
      if (file.blob) downloadFile(file.blob, file.fileName);
      setState({
        step: 'done',
        fileName: file.fileName,
        isSaved: file.blob === null,
        isSealed: seal.isOn,
        ...input.done(file),
      });
    } catch (error) {
      setState({ step: 'failed', message: describeError(error, input.failure) });
    }
  }

  return {
    state,
    isWorking,
    isChoosing: state.step === 'choose' || state.step === 'failed',
    seal,
    setSeal,
    sealErrors: showSealErrors ? sealErrors : {},
    reset,
    write,
  };
}

/**
 * The dialog around those steps: it cannot be closed while the file is written, shows the
 * progress, the outcome, and Cancel with the action or Done.
 */
export function FileWritingDialog<TDone extends object>({
  writing,
  open,
  onOpenChange,
  title,
  description,
  progressLabel,
  keepOpenText,
  doneTitle,
  failedTitle,
  action,
  children,
  done,
}: {
  writing: ReturnType<typeof useFileWriting<TDone>>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  progressLabel: string;
  keepOpenText: string;
  doneTitle: string;
  failedTitle: string;
  action: { label: string; icon: ReactNode; onClick: () => void; disabled?: boolean };
  /** The choices, shown while choosing (and again after a failure). */
  children: ReactNode;
  /** The outcome's words. */
  done: (state: Extract<TWritingState<TDone>, { step: 'done' }>) => ReactNode;
}) {
  const { state, isWorking } = writing;

  function close(isOpen: boolean) {
    if (isOpen || isWorking) return;
    onOpenChange(false);
    writing.reset();
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        hideClose={isWorking}
        onEscapeKeyDown={(event) => isWorking && event.preventDefault()}
        onInteractOutside={(event) => isWorking && event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>

        {writing.isChoosing && children}

        {state.step === 'working' && (
          <>
            <ByteProgressBar label={progressLabel} progress={state.progress} />
            <p className="text-lg">{keepOpenText}</p>
          </>
        )}

        {state.step === 'done' && (
          <Alert variant="success" title={doneTitle}>
            {done(state)}
          </Alert>
        )}

        {state.step === 'failed' && (
          <Alert variant="destructive" title={failedTitle}>
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
                <Button onClick={action.onClick} disabled={action.disabled}>
                  {action.icon}
                  {state.step === 'failed' ? 'Try Again' : action.label}
                </Button>
              </>
            )}
          </DialogFooter>
        )}
      </DialogContent>
    </Dialog>
  );
}
