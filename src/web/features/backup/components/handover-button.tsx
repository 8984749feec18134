import { useId, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { FolderDown } from 'lucide-react';
import type { TRecipient } from '@shared/schemas/recipients';
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
import type { TUser } from '@shared/schemas/auth';
import { useAuth } from '@web/features/auth';
import { listVideos } from '@web/features/videos';
import { describeError } from '@web/lib/api-client';
import {
  createHandover,
  makeHandoverFileName,
  README_FILE,
  splitForHandover,
  type THeldBackReason,
} from '../create-handover';
import { downloadFile } from '../download-file';
import { chooseSaveTarget } from '../save-target';
import { useWarnBeforeLeaving } from '../use-warn-before-leaving';
import {
  checkPassphrase,
  hasPassphraseErrors,
  NO_PASSPHRASE,
  PassphraseFields,
  type TPassphraseChoice,
} from './passphrase-fields';
import { ByteProgressBar, startByteProgress, type TByteProgressState } from './progress-bar';

interface HandoverButtonProps {
  recipient: TRecipient;
  /** Videos for this recipient on this device; none means there is nothing to save. */
  localVideoCount: number;
}

type TState =
  | { step: 'choose' }
  | { step: 'working'; progress: TByteProgressState }
  | { step: 'done'; fileName: string; count: number; isSaved: boolean; isSealed: boolean }
  | { step: 'failed'; message: string };

const messages = (count: number) => `${count} message${count === 1 ? '' : 's'}`;

/** Why messages stay out, in plain words: a handover file cannot keep them closed. */
export function describeHeldBack(
  heldBack: Record<THeldBackReason, number>,
  firstName: string,
): string[] {
  const lines: string[] = [];
  const them = (count: number) => (count === 1 ? 'it' : 'them');
  if (heldBack.legacy > 0) {
    lines.push(
      `${messages(heldBack.legacy)} ${heldBack.legacy === 1 ? 'is' : 'are'} left out: ${heldBack.legacy === 1 ? 'it opens' : 'they open'} for ${firstName} only when your legacy is released, and a file could not keep ${them(heldBack.legacy)} closed until then.`,
    );
  }
  if (heldBack.date > 0) {
    lines.push(
      `${messages(heldBack.date)} ${heldBack.date === 1 ? 'is' : 'are'} left out: ${heldBack.date === 1 ? 'it opens' : 'they open'} on a date still to come. Save again after that date to include ${them(heldBack.date)}.`,
    );
  }
  return lines;
}

function HandoverDialog({
  owner,
  recipient,
  open,
  onOpenChange,
}: {
  owner: TUser;
  recipient: TRecipient;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const name = recipient.firstName;
  const [state, setState] = useState<TState>({ step: 'choose' });
  const [seal, setSeal] = useState<TPassphraseChoice>(NO_PASSPHRASE);
  const [showSealErrors, setShowSealErrors] = useState(false);
  const videos = useLiveQuery(() => listVideos(owner.id, recipient.id), [owner.id, recipient.id]);
  // The release rules are read when the dialog shows; a date passing meanwhile changes nothing.
  const [now] = useState(() => new Date());
  const split = splitForHandover(videos ?? [], now);
  const heldBackLines = describeHeldBack(split.heldBack, name);
  const isWorking = state.step === 'working';
  const sealErrors = checkPassphrase(seal);
  useWarnBeforeLeaving(isWorking);

  function close(isOpen: boolean) {
    if (isOpen || isWorking) return;
    onOpenChange(false);
    setState({ step: 'choose' });
    setSeal(NO_PASSPHRASE);
    setShowSealErrors(false);
  }

  async function save() {
    if (hasPassphraseErrors(sealErrors)) {
      setShowSealErrors(true);
      return;
    }
    // First, while the click still counts: the save picker needs it.
    const target = await chooseSaveTarget(makeHandoverFileName(owner, recipient));
    if (target === 'cancelled') return;
    setState({ step: 'working', progress: { doneBytes: 0, totalBytes: 0, elapsedMs: 0 } });
    try {
      const handover = await createHandover({
        owner,
        recipient,
        videos: split.open,
        passphrase: seal.isOn ? seal.passphrase : null,
        hint: seal.isOn ? seal.hint : null,
        target,
        onProgress: startByteProgress((progress) => setState({ step: 'working', progress })),
      });
      if (handover.blob) downloadFile(handover.blob, handover.fileName);
      setState({
        step: 'done',
        fileName: handover.fileName,
        count: split.open.length,
        isSaved: handover.blob === null,
        isSealed: seal.isOn,
      });
    } catch (error) {
      setState({ step: 'failed', message: describeError(error, 'Please try again.') });
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
          <DialogTitle>Save videos for {name}</DialogTitle>
          <DialogDescription>
            Ordinary video files with a page that plays them, to open on any computer without
            Memento.
          </DialogDescription>
        </DialogHeader>

        {(state.step === 'choose' || state.step === 'failed') && videos !== undefined && (
          <div className="flex flex-col gap-3 text-lg" data-testid="handover-summary">
            <p>
              {split.open.length === 0
                ? `None of the messages for ${name} are open yet, so there is nothing to save.`
                : `${messages(split.open.length)} for ${name} will be saved.`}
            </p>
            {heldBackLines.map((line) => (
              <p key={line}>{line}</p>
            ))}
          </div>
        )}

        {(state.step === 'choose' || state.step === 'failed') && split.open.length > 0 && (
          <PassphraseFields
            label="Protect these videos with a passphrase"
            value={seal}
            onChange={setSeal}
            errors={showSealErrors ? sealErrors : {}}
          />
        )}

        {state.step === 'working' && (
          <>
            <ByteProgressBar label="Saving the videos" progress={state.progress} />
            <p className="text-lg">Please keep this page open until the file is written.</p>
          </>
        )}

        {state.step === 'done' && (
          <Alert variant="success" title={`Videos saved for ${name}`}>
            <p>
              {state.isSaved ? 'They are saved as ' : 'They are downloading as '}
              <strong className="break-words">{state.fileName}</strong>, with{' '}
              {messages(state.count)}.
            </p>
            <p>
              {state.isSealed
                ? `Only "${README_FILE}" can be read without the passphrase: it says how to open the file with free tools such as 7-Zip.`
                : `Unzip (extract) the file, then open "${README_FILE}" to watch them on any computer.`}
            </p>
          </Alert>
        )}

        {state.step === 'failed' && (
          <Alert variant="destructive" title="The videos could not be saved">
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
                <Button onClick={() => void save()} disabled={split.open.length === 0}>
                  <FolderDown aria-hidden="true" />
                  {state.step === 'failed' ? 'Try Again' : 'Save'}
                </Button>
              </>
            )}
          </DialogFooter>
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * 'Save videos for {firstName}': the recipient's open messages as plain files with a page that
 * plays them, to open on any computer without Memento (docs/decisions/016-backups-and-handover.md).
 * How a next of kin passes messages on from a Community Edition device.
 */
export function HandoverButton({ recipient, localVideoCount }: HandoverButtonProps) {
  const { user: owner } = useAuth();
  const hintId = useId();
  const [isOpen, setIsOpen] = useState(false);
  const name = recipient.firstName;
  const hasVideos = localVideoCount > 0;

  return (
    <div className="flex flex-col gap-1">
      <Button
        variant="outline"
        onClick={() => setIsOpen(true)}
        disabled={!owner || !hasVideos}
        aria-describedby={hasVideos ? undefined : hintId}
      >
        <FolderDown aria-hidden="true" />
        {`Save videos for ${name}`}
      </Button>
      {!hasVideos && (
        <p id={hintId} className="text-base text-muted-foreground">
          No videos for {name} on this device yet.
        </p>
      )}
      {owner && (
        <HandoverDialog
          owner={owner}
          recipient={recipient}
          open={isOpen}
          onOpenChange={setIsOpen}
        />
      )}
    </div>
  );
}
