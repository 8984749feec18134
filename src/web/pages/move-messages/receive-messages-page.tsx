import { PageSpinner } from '@web/components/ui/spinner';
import { StoragePanel } from '@web/features/backup/components/storage-panel';
import { usePageTitle } from '@web/lib/use-page-title';
import { MovePage, SignInFirst, useOwnerAtStart } from './move-page-parts';
import { ReceiveMessagesPanel } from '@web/features/transfer/components/receive-messages-panel';

/** The new device: takes the code and receives the messages. */
export default function ReceiveMessagesPage() {
  usePageTitle('Receive messages from my old device');
  const { owner, isLoading } = useOwnerAtStart();
  if (isLoading) return <PageSpinner label="Checking your sign-in" />;
  return (
    <MovePage
      title="Receive messages from my old device"
      intro="Keep your old device beside this one, on the same Wi-Fi. Your messages come straight from it, checked one by one."
    >
      {owner ? (
        <ReceiveMessagesPanel creatorId={owner.id} fallback={<StoragePanel user={owner} />} />
      ) : (
        <SignInFirst />
      )}
    </MovePage>
  );
}
