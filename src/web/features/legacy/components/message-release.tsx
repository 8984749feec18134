import { Suspense, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CalendarClock } from 'lucide-react';
import type { TRelease } from '@shared/domain/legacy';
import { Button } from '@web/components/ui/button';
import { setLocalRelease } from '@web/lib/videos/local-store';
import { VIDEO_INDEX_QUERY_KEY } from '@web/lib/videos/videos-api';
import { describeError } from '@web/lib/api-client';
import { setMessageRelease } from '../legacy-api';
import { describeRelease, readDraft, toDraft, type TReleaseDraft } from '../release-wording';
import { lazyNamed } from '@web/lib/lazy-named';

// The form's code loads when 'Change' is pressed, not with the library it sits in.
const ReleaseChoice = lazyNamed(() => import('./release-choice'), 'ReleaseChoice');

interface MessageReleaseProps {
  videoId: string;
  /** The message's title, so each 'Change' button says which message it changes. */
  title: string;
  release: TRelease | undefined;
}

/**
 * A message's rule in words, and a small form in its place to change it: no dialog over the
 * library. The server's answer is kept on the local record too, for offline.
 */
export function MessageRelease({ videoId, title, release }: MessageReleaseProps) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<TReleaseDraft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  async function onSave() {
    if (!draft || isSaving) return;
    const read = readDraft(draft);
    if (!read.release) {
      setError(read.error);
      return;
    }
    setIsSaving(true);
    setError(null);
    try {
      const entry = await setMessageRelease(videoId, read.release);
      await setLocalRelease(videoId, entry.release);
      setDraft(null);
      void queryClient.invalidateQueries({ queryKey: VIDEO_INDEX_QUERY_KEY });
    } catch (reason) {
      setError(describeError(reason, 'Please try again.'));
    } finally {
      setIsSaving(false);
    }
  }

  if (!draft) {
    return (
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="flex items-center gap-2 text-base">
          <CalendarClock className="size-5 shrink-0 text-primary" aria-hidden="true" />
          {describeRelease(release)}
        </p>
        <Button
          variant="outline"
          onClick={() => {
            setDraft(toDraft(release));
            setError(null);
          }}
        >
          Change
          <span className="sr-only"> when they can watch {title}</span>
        </Button>
      </div>
    );
  }

  return (
    <form
      className="flex flex-col gap-3 rounded-lg border-2 border-border bg-muted/40 p-3"
      aria-label={`When can they watch ${title}?`}
      onSubmit={(event) => {
        event.preventDefault();
        void onSave();
      }}
    >
      <Suspense fallback={null}>
        <ReleaseChoice value={draft} onChange={setDraft} error={error} disabled={isSaving} />
      </Suspense>
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button type="submit" aria-disabled={isSaving || undefined}>
          {isSaving ? 'Saving...' : 'Save'}
        </Button>
        <Button type="button" variant="outline" onClick={() => setDraft(null)} disabled={isSaving}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
