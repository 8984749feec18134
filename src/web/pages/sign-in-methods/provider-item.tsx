import { Button } from '@web/components/ui/button';
import type { TExternalProvider } from '@shared/domain/enums';
import { ProviderMark } from '@web/features/external-sign-in/components/provider-buttons';
import type { useUnlinkProvider } from '@web/features/external-sign-in/external-sign-in-api';
import { lazyDateFormat } from '@web/lib/date-format';

const dateFormat = lazyDateFormat(undefined, { dateStyle: 'medium' });

interface ProviderItemProps {
  id: TExternalProvider;
  name: string;
  identity: { email: string | null; linkedAt: string } | undefined;
  /** Without a password, the one linked provider cannot be removed. */
  isOnlyWay: boolean;
  isConfirming: boolean;
  onRemove: () => void;
  onKeep: () => void;
  unlink: ReturnType<typeof useUnlinkProvider>;
  /** The provider whose page is opening, if any: the other buttons wait. */
  leaving: TExternalProvider | null;
  isLeaving: boolean;
  onLink: () => void;
}

/** One provider: linked since when (with 'Remove', asked twice), or 'Link'. */
export function ProviderItem({
  id,
  name,
  identity,
  isOnlyWay,
  isConfirming,
  onRemove,
  onKeep,
  unlink,
  leaving,
  isLeaving,
  onLink,
}: ProviderItemProps) {
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-border p-4 sm:flex-row sm:items-start">
      <span className="mt-1 inline-flex size-6 shrink-0 [&_svg]:size-6">
        <ProviderMark provider={id} />
      </span>
      <div className="flex flex-1 flex-col gap-1">
        <p className="text-lg font-semibold">{name}</p>
        {identity ? (
          <p className="text-muted-foreground">
            Linked{identity.email ? ` as ${identity.email}` : ''} since{' '}
            {dateFormat.format(new Date(identity.linkedAt))}
          </p>
        ) : (
          <p className="text-muted-foreground">Not linked</p>
        )}
        {identity && isOnlyWay && (
          <p>This is your only way to sign in. Set a password first if you want to remove it.</p>
        )}
        {isConfirming && identity && (
          <div className="mt-2 flex flex-col gap-3 rounded-lg bg-muted p-4">
            <p className="font-semibold">Remove your {name} sign-in?</p>
            <p>You can link it again at any time.</p>
            <div className="flex flex-col gap-3 sm:flex-row">
              <Button
                variant="destructive"
                disabled={unlink.isPending}
                onClick={() => unlink.mutate(id, { onSuccess: onKeep })}
              >
                {unlink.isPending ? 'Removing...' : `Yes, remove ${name}`}
              </Button>
              <Button variant="ghost" onClick={onKeep}>
                Keep it
              </Button>
            </div>
            {unlink.isError && (
              <p role="alert" className="font-semibold text-destructive">
                {unlink.error.message}
              </p>
            )}
          </div>
        )}
      </div>
      {identity ? (
        !isConfirming &&
        !isOnlyWay && (
          <Button variant="outline" onClick={onRemove}>
            Remove
          </Button>
        )
      ) : (
        <Button variant="outline" disabled={isLeaving} onClick={onLink}>
          {leaving === id ? `Opening ${name}...` : `Link ${name}`}
        </Button>
      )}
    </li>
  );
}
