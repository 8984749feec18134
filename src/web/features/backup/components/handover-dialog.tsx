import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { FolderDown } from 'lucide-react';
import type { TRecipient } from '@shared/schemas/recipients';
import type { TUser } from '@shared/schemas/auth';
import { listVideos } from '@web/lib/videos/local-store';
import {
  createHandover,
  makeHandoverFileName,
  README_FILE,
  splitForHandover,
  type THeldBackReason,
} from '../create-handover';
import { FileWritingDialog, useFileWriting } from './file-writing-dialog';
import { PassphraseFields } from './passphrase-fields';

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

export default function HandoverDialog({
  owner,
  recipient,
  onOpenChange,
}: {
  owner: TUser;
  recipient: TRecipient;
  onOpenChange: (open: boolean) => void;
}) {
  const name = recipient.firstName;
  const writing = useFileWriting<{ count: number }>();
  const videos = useLiveQuery(() => listVideos(owner.id, recipient.id), [owner.id, recipient.id]);
  // The release rules are read when the dialog shows; a date passing meanwhile changes nothing.
  const [now] = useState(() => new Date());
  const split = splitForHandover(videos ?? [], now);
  const heldBackLines = describeHeldBack(split.heldBack, name);

  function save() {
    return writing.write({
      fileName: makeHandoverFileName(owner, recipient),
      totalBytes: 0,
      make: (file) => createHandover({ owner, recipient, videos: split.open, ...file }),
      done: () => ({ count: split.open.length }),
      failure: 'Please try again.',
    });
  }

  return (
    <FileWritingDialog
      writing={writing}
      open
      onOpenChange={onOpenChange}
      title={`Save videos for ${name}`}
      description="Ordinary video files with a page that plays them, to open on any computer without Memento."
      progressLabel="Saving the videos"
      keepOpenText="Please keep this page open until the file is written."
      doneTitle={`Videos saved for ${name}`}
      failedTitle="The videos could not be saved"
      action={{
        label: 'Save',
        icon: <FolderDown aria-hidden="true" />,
        onClick: () => void save(),
        disabled: split.open.length === 0,
      }}
      done={(state) => (
        <>
          <p>
            {state.isSaved ? 'They are saved as ' : 'They are downloading as '}
            <strong className="break-words">{state.fileName}</strong>, with {messages(state.count)}.
          </p>
          <p>
            {state.isSealed
              ? `Only "${README_FILE}" can be read without the passphrase: it says how to open the file with free tools such as 7-Zip.`
              : `Unzip (extract) the file, then open "${README_FILE}" to watch them on any computer.`}
          </p>
        </>
      )}
    >
      {videos !== undefined && (
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
      {split.open.length > 0 && (
        <PassphraseFields
          label="Protect these videos with a passphrase"
          value={writing.seal}
          onChange={writing.setSeal}
          errors={writing.sealErrors}
        />
      )}
    </FileWritingDialog>
  );
}
