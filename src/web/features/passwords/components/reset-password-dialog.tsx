import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { CircleAlert } from 'lucide-react';
import { ZChangePasswordForm } from '@shared/schemas/safety-net';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { FormField } from '@web/components/ui/form-field';
import { toast } from '@web/components/ui/use-toast';
import { describeError, isApiError } from '@web/lib/api-client';
import { changePassword, PASSWORD_TEXT } from '../passwords-api';
import { NewPasswordField } from '@web/features/auth/components/new-password-field';

type TChangePasswordForm = z.input<typeof ZChangePasswordForm>;

const EMPTY: TChangePasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

interface ResetPasswordDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** SPEC §2 dashboard 'Reset Password': current, new and confirmation, all required. */
export function ResetPasswordDialog({ open, onOpenChange }: ResetPasswordDialogProps) {
  const {
    register,
    control,
    handleSubmit,
    reset: resetForm,
    setError,
    formState: { errors },
  } = useForm<TChangePasswordForm>({
    resolver: zodResolver(ZChangePasswordForm),
    defaultValues: EMPTY,
  });
  const newPassword = useWatch({ control, name: 'newPassword' });

  const change = useMutation({
    mutationFn: (values: TChangePasswordForm) =>
      changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword }),
    onSuccess: (result) => {
      toast({
        variant: 'success',
        title: 'Success',
        description: result?.message || PASSWORD_TEXT.changeSucceeded,
      });
      close();
    },
    onError: (error) => {
      if (isApiError(error) && error.fields) {
        for (const [field, message] of Object.entries(error.fields)) {
          if (field === 'currentPassword' || field === 'newPassword')
            setError(field, { message }, { shouldFocus: true });
        }
      }
      toast({
        variant: 'destructive',
        title: 'Error',
        description: describeError(error, PASSWORD_TEXT.changeFailed),
      });
    },
  });

  function close() {
    onOpenChange(false);
    resetForm(EMPTY);
    change.reset();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(isOpen) => {
        if (isOpen) onOpenChange(true);
        else if (!change.isPending) close();
      }}
    >
      <DialogContent>
        <form
          noValidate
          onSubmit={handleSubmit((values) => change.mutate(values))}
          className="flex flex-col gap-5"
        >
          <DialogHeader>
            <DialogTitle>Reset Password</DialogTitle>
            <DialogDescription>
              Choose a new password for your account. You stay signed in here; any other sign-ins
              are ended.
            </DialogDescription>
          </DialogHeader>

          {change.isError && !(isApiError(change.error) && change.error.fields) && (
            // The toast is outside the dialog, where a screen reader in the dialog cannot hear it.
            <Alert variant="destructive" title="Error" icon={<CircleAlert aria-hidden="true" />}>
              <p>{describeError(change.error, PASSWORD_TEXT.changeFailed)}</p>
            </Alert>
          )}
          <FormField
            label="Current password"
            type="password"
            autoComplete="current-password"
            isRequired
            error={errors.currentPassword?.message}
            {...register('currentPassword')}
          />
          <NewPasswordField
            label="New password"
            isRequired
            error={errors.newPassword?.message}
            password={newPassword}
            {...register('newPassword')}
          />
          <FormField
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            isRequired
            error={errors.confirmPassword?.message}
            {...register('confirmPassword')}
          />

          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={change.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? 'Resetting...' : 'Reset Password'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
