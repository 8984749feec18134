import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { CircleAlert } from 'lucide-react';
import type { TResetDeviceResponse } from '@shared/schemas/devices';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { PendingSafeDialog } from '@web/components/pending-safe-dialog';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { toast } from '@web/components/ui/use-toast';
import { useAuth } from '@web/lib/auth-provider';
import { RESET_TEXT, resetDeviceAssociation } from './device-reset-api';

interface ResetDeviceDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRequestEmergency: () => void;
  onDeviceFreed?: (result: TResetDeviceResponse) => void;
  onCloseAutoFocus?: (event: Event) => void;
}

/** Asks before freeing this device from the account registered on it. */
export function ResetDeviceDialog({
  open,
  onOpenChange,
  onRequestEmergency,
  onDeviceFreed,
  onCloseAutoFocus,
}: ResetDeviceDialogProps) {
  const { user, signOutLocally } = useAuth();
  const passwordId = useId();
  const [password, setPassword] = useState('');
  // Signed in here, the session already proves ownership; signed out, the password does.
  const isPasswordNeeded = !user;

  const reset = useMutation({
    mutationFn: () => resetDeviceAssociation(isPasswordNeeded ? password : undefined),
    onSuccess: (result) => {
      if (result.reset) {
        toast({
          variant: 'success',
          title: RESET_TEXT.succeeded,
          description: 'This device is free. A new account can now be created on it.',
          duration: 5000,
        });
        signOutLocally();
      } else {
        toast({
          title: RESET_TEXT.alreadyClear,
          description: 'No account is registered on this device, so there was nothing to reset.',
          duration: 3000,
        });
      }
      closeDialog();
      onDeviceFreed?.(result);
    },
  });

  function closeDialog() {
    onOpenChange(false);
    setPassword('');
    reset.reset();
  }

  return (
    <PendingSafeDialog
      open={open}
      onOpenChange={(isOpen) => (isOpen ? onOpenChange(true) : closeDialog())}
      isPending={reset.isPending}
      title={RESET_TEXT.resetTitle}
      description={
        user
          ? 'This unlinks your account from this device and signs you out. Nothing stored in this browser is deleted.'
          : 'This frees this device so that a new account can be created on it. The account registered here is unlinked from this device and its owner is signed out.'
      }
      onSubmit={() => reset.mutate()}
      submitLabel="Reset Device"
      pendingLabel="Resetting..."
      submitVariant="destructive"
      onCloseAutoFocus={onCloseAutoFocus}
    >
      {isPasswordNeeded && (
        <div className="flex flex-col gap-2">
          <Label htmlFor={passwordId}>Account password</Label>
          <Input
            id={passwordId}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-describedby={`${passwordId}-hint`}
          />
          <p id={`${passwordId}-hint`} className="text-base text-muted-foreground">
            The password of the account registered on this device. It proves the device is yours to
            reset.
          </p>
        </div>
      )}

      {reset.isError && (
        <Alert
          variant="destructive"
          title={RESET_TEXT.failed}
          icon={<CircleAlert aria-hidden="true" />}
        >
          <p>{reset.error.message}</p>
          <div>
            <Button
              variant="secondary"
              onClick={() => {
                setPassword('');
                reset.reset();
                onRequestEmergency();
              }}
            >
              Try Emergency Reset
            </Button>
          </div>
        </Alert>
      )}
    </PendingSafeDialog>
  );
}
