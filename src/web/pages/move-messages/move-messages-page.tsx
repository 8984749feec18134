import { PageSpinner } from '@web/components/ui/spinner';
import { StoragePanel } from '@web/features/backup/components/storage-panel';
import { usePageTitle } from '@web/lib/use-page-title';
import { MovePage, SignInFirst, useOwnerAtStart } from './move-page-parts';
import { SendMessagesPanel } from '@web/features/transfer/components/send-messages-panel';

/** The old device: shows the code and sends the messages. */
export default function MoveMessagesPage() {
  usePageTitle('Move my messages to a new device');
  const { owner, isLoading } = useOwnerAtStart();
  if (isLoading) return <PageSpinner label="Checking your sign-in" />;
  return (
    <MovePage
      title="Move my messages to a new device"
      intro="Your messages go straight from this device to your new one, never through the cloud. They stay on this device too."
    >
      {owner ? (
        <SendMessagesPanel
          source={{ creatorId: owner.id }}
          fallback={<StoragePanel user={owner} />}
        />
      ) : (
        <SignInFirst />
      )}
    </MovePage>
  );
}
