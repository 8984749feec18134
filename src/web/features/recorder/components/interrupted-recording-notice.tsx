import { Link } from 'react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { History } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { listDrafts } from '@web/lib/videos/local-store';

/** On the dashboard: a recording that a reload or crash interrupted waits on the Record page. */
export function InterruptedRecordingNotice({ creatorId }: { creatorId: number }) {
  const count = useLiveQuery(
    async () => (await listDrafts(creatorId)).filter((draft) => draft.chunkCount > 0).length,
    [creatorId],
  );
  if (!count) return null;
  return (
    <Alert
      variant="warm"
      kind="note"
      title="A recording was interrupted"
      icon={<History aria-hidden="true" />}
    >
      <p>
        {count === 1 ? 'A recording was' : `${count} recordings were`} not saved because the page
        closed. {count === 1 ? 'It is' : 'They are'} still on this device, ready to save.
      </p>
      <div>
        <Button asChild>
          <Link to="/record">Recover Recording</Link>
        </Button>
      </div>
    </Alert>
  );
}
