import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { Download } from 'lucide-react';
import type { TUser } from '@shared/schemas/auth';
import type { TRecipientList } from '@shared/schemas/recipients';
import { RECIPIENTS_QUERY_KEY } from '@web/lib/recipients-api';
import { listVideos } from '@web/lib/videos/local-store';
import { cn } from '@web/lib/utils';
import { makeBackupFileName, type TBackupType } from '../backup-manifest';
import { createBackup } from '../create-backup';
import { formatBytes } from '@web/lib/format-bytes';
import { FileWritingDialog, useFileWriting } from './file-writing-dialog';
import { PassphraseFields } from './passphrase-fields';

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
  const writing = useFileWriting<{ videoCount: number }>();
  const videos = useLiveQuery(() => listVideos(user.id), [user.id]);
  const totalBytes = (videos ?? []).reduce((sum, video) => sum + video.byteSize, 0);

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

  function makeBackup() {
    const now = new Date();
    return writing.write({
      fileName: makeBackupFileName(user.username, type, now),
      totalBytes,
      make: async (file) =>
        createBackup({ type, account: user, recipients: await readRecipients(), now, ...file }),
      done: (backup) => ({ videoCount: backup.videoCount }),
      failure: 'The backup could not be made.',
    });
  }

  return (
    <FileWritingDialog
      writing={writing}
      open={open}
      onOpenChange={onOpenChange}
      title="Download Backup"
      description="A copy to keep away from this device."
      progressLabel="Writing your backup"
      keepOpenText="Please keep this page open until the backup is written."
      doneTitle="Your backup is ready"
      failedTitle="The backup could not be made"
      action={{
        label: 'Download',
        icon: <Download aria-hidden="true" />,
        onClick: () => void makeBackup(),
      }}
      done={(state) => (
        <>
          <p>
            {state.isSaved ? 'It is saved as ' : 'It is downloading as '}
            <strong className="break-words">{state.fileName}</strong>
            {state.videoCount > 0 ? `, with ${plural(state.videoCount)}.` : '.'}
          </p>
          {state.isSealed && (
            <p>
              It is protected with your passphrase. Without it, nobody can open the backup, so keep
              the passphrase somewhere safe, apart from the file.
            </p>
          )}
          <p>
            Keep it somewhere safe, away from this device, such as on a USB stick or another
            computer.
          </p>
        </>
      )}
    >
      {writing.state.step === 'choose' && (
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
      <PassphraseFields
        label="Protect this backup with a passphrase"
        value={writing.seal}
        onChange={writing.setSeal}
        errors={writing.sealErrors}
      />
    </FileWritingDialog>
  );
}
