import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, MonitorSmartphone, Trash2 } from 'lucide-react';
import type { TAdminDevice } from '@shared/schemas/admin';
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
import { PageSpinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useAuth } from '@web/lib/auth-provider';
import { useDeviceId } from '@web/lib/device-provider';
import { describeError, isApiError } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { ADMIN_DEVICES_QUERY_KEY, deleteDeviceAssociation, useAdminDevices } from '../admin-api';
import { formatDateTime, fullName } from '../admin-format';
import { ShowMoreButton } from './show-more-button';

export const DEVICE_TOASTS = {
  success: 'Device association removed successfully',
  error: 'Error removing device association',
  serverError: 'Server error occurred while deleting device association',
} as const;

const badgeClass =
  'inline-flex items-center rounded-full border px-2.5 py-0.5 text-base font-semibold whitespace-nowrap';

function PrimaryUserBadge() {
  return (
    <span className={cn(badgeClass, 'border-primary/40 bg-primary-soft text-primary')}>
      Primary
    </span>
  );
}

function DeviceStatus({ device }: { device: TAdminDevice }) {
  return device.isPrimary ? (
    <span className={cn(badgeClass, 'border-success/40 bg-success-soft text-success')}>
      Primary Device
    </span>
  ) : (
    <span className={cn(badgeClass, 'border-border bg-secondary text-secondary-foreground')}>
      Secondary Device
    </span>
  );
}

function DeviceUser({ device }: { device: TAdminDevice }) {
  return (
    <span className="flex flex-col gap-1">
      <span className="flex flex-wrap items-center gap-2">
        <span className="font-semibold break-all">{device.username}</span>
        {device.isPrimaryUser && <PrimaryUserBadge />}
      </span>
      <span className="text-muted-foreground">{fullName(device)}</span>
    </span>
  );
}

function DeviceIdText({ device, isThisDevice }: { device: TAdminDevice; isThisDevice: boolean }) {
  return (
    <span className="flex flex-col gap-1">
      <code className="font-mono text-base break-all">{device.deviceId}</code>
      {device.deviceName && <span className="text-muted-foreground">{device.deviceName}</span>}
      {isThisDevice && <span className="font-semibold text-primary">This device</span>}
    </span>
  );
}

/** One device can be linked to several people: its owner and others signed in there. */
const associationKey = (device: TAdminDevice) => `${device.deviceId}:${device.userId}`;

interface RowProps {
  device: TAdminDevice;
  isThisDevice: boolean;
  onRemove: () => void;
}

function RemoveButton({ device, onRemove }: Omit<RowProps, 'isThisDevice'>) {
  return (
    <Button
      variant="ghost-destructive"
      onClick={onRemove}
      aria-label={`Remove device association ${device.deviceId} of ${device.username}`}
    >
      <Trash2 aria-hidden="true" />
      Remove
    </Button>
  );
}

/** Columns: Device ID, User, Status, Created At, Last Sync, and the remove action. */
function DevicesTable({ devices, thisDeviceId, onRemove }: ListProps) {
  return (
    <div className="hidden overflow-x-auto rounded-xl border border-border bg-card shadow-soft lg:block">
      <table className="w-full border-collapse text-left text-base">
        <caption className="sr-only">Device associations</caption>
        <thead className="bg-muted">
          <tr>
            {['Device ID', 'User', 'Status', 'Created At', 'Last Sync'].map((column) => (
              <th key={column} scope="col" className="px-4 py-3 font-semibold">
                {column}
              </th>
            ))}
            <th scope="col" className="px-4 py-3">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {devices.map((device) => (
            <tr key={associationKey(device)} className="border-t border-border align-top">
              <td className="w-[24%] px-4 py-3">
                <DeviceIdText device={device} isThisDevice={device.deviceId === thisDeviceId} />
              </td>
              <td className="px-4 py-3">
                <DeviceUser device={device} />
              </td>
              <td className="px-4 py-3">
                <DeviceStatus device={device} />
              </td>
              <td className="px-4 py-3">{formatDateTime(device.createdAt)}</td>
              <td className="px-4 py-3">{formatDateTime(device.lastSyncAt)}</td>
              <td className="px-2 py-1.5 text-right">
                <RemoveButton device={device} onRemove={() => onRemove(device)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface ListProps {
  devices: TAdminDevice[];
  thisDeviceId: string | null;
  onRemove: (device: TAdminDevice) => void;
}

/** The same associations as cards, for phones and tablets. */
function DeviceCards({ devices, thisDeviceId, onRemove }: ListProps) {
  return (
    <ul aria-label="Device associations" className="flex flex-col gap-3 lg:hidden">
      {devices.map((device) => (
        <li
          key={associationKey(device)}
          className="flex flex-col gap-3 rounded-xl border border-border bg-card p-4 shadow-soft"
        >
          <div className="flex flex-wrap items-start justify-between gap-2">
            <DeviceUser device={device} />
            <DeviceStatus device={device} />
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-base">
            <dt className="text-muted-foreground">Device ID</dt>
            <dd>
              <DeviceIdText device={device} isThisDevice={device.deviceId === thisDeviceId} />
            </dd>
            <dt className="text-muted-foreground">Created At</dt>
            <dd>{formatDateTime(device.createdAt)}</dd>
            <dt className="text-muted-foreground">Last Sync</dt>
            <dd>{formatDateTime(device.lastSyncAt)}</dd>
          </dl>
          <div>
            <RemoveButton device={device} onRemove={() => onRemove(device)} />
          </div>
        </li>
      ))}
    </ul>
  );
}

export function DevicesTab() {
  const queryClient = useQueryClient();
  const devices = useAdminDevices();
  const thisDeviceId = useDeviceId();
  const { signOutLocally } = useAuth();
  const [removing, setRemoving] = useState<TAdminDevice | null>(null);
  const [isRemoving, setIsRemoving] = useState(false);

  async function confirmRemove() {
    if (!removing) return;
    setIsRemoving(true);
    try {
      await deleteDeviceAssociation(removing.deviceId);
      toast({ variant: 'success', title: DEVICE_TOASTS.success });
      setRemoving(null);
      // The server ended every session on that device, this one included.
      if (removing.deviceId === thisDeviceId) {
        signOutLocally();
        return;
      }
      await queryClient.invalidateQueries({ queryKey: ADMIN_DEVICES_QUERY_KEY });
    } catch (error) {
      // An answer that is not JSON (a proxy's error page) gets the generic message.
      const isUnreadable = isApiError(error) && error.code === undefined && error.status >= 500;
      toast({
        variant: 'destructive',
        title: DEVICE_TOASTS.error,
        description: isUnreadable
          ? DEVICE_TOASTS.serverError
          : describeError(error, DEVICE_TOASTS.serverError),
      });
    } finally {
      setIsRemoving(false);
    }
  }

  if (devices.isPending) return <PageSpinner label="Loading device associations" />;
  if (devices.isError && !devices.isFetchNextPageError) {
    return (
      <Alert
        variant="destructive"
        title="Device associations could not be loaded"
        icon={<CircleAlert aria-hidden="true" />}
      >
        <p>{devices.error.message}</p>
        <div>
          <Button variant="outline" onClick={() => void devices.refetch()}>
            Try Again
          </Button>
        </div>
      </Alert>
    );
  }

  const list = devices.data;
  return (
    <>
      {list.length === 0 ? (
        <p className="flex items-center gap-3 rounded-xl border border-border bg-card p-6 text-lg shadow-soft">
          <MonitorSmartphone className="size-6 text-muted-foreground" aria-hidden="true" />
          No devices are associated with an account.
        </p>
      ) : (
        <>
          <DevicesTable devices={list} thisDeviceId={thisDeviceId} onRemove={setRemoving} />
          <DeviceCards devices={list} thisDeviceId={thisDeviceId} onRemove={setRemoving} />
        </>
      )}
      {devices.hasNextPage && (
        <ShowMoreButton
          what="device associations"
          isLoading={devices.isFetchingNextPage}
          error={devices.isFetchNextPageError ? devices.error : null}
          onShowMore={() => void devices.fetchNextPage()}
        />
      )}
      <Dialog
        open={removing !== null}
        onOpenChange={(next) => !isRemoving && !next && setRemoving(null)}
      >
        <DialogContent hideClose={isRemoving}>
          <DialogHeader>
            <DialogTitle>Remove Device Association</DialogTitle>
            <DialogDescription>
              {removing && (
                <>
                  The device <code className="font-mono break-all">{removing.deviceId}</code> will
                  no longer be linked to <span className="font-semibold">{removing.username}</span>.
                  They will have to sign in again on that device.
                  {removing.deviceId === thisDeviceId &&
                    ' This is the device you are using now, so you will be signed out here.'}
                </>
              )}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setRemoving(null)} disabled={isRemoving}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={confirmRemove} disabled={isRemoving}>
              <Trash2 aria-hidden="true" />
              {isRemoving ? 'Removing...' : 'Remove Association'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
