import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { ZChangePasswordForm } from '@shared/schemas/passwords';
import { FormField } from '@web/components/ui/form-field';
import { NewPasswordFields } from '@web/components/new-password-fields';
import { PendingSafeDialog } from '@web/components/pending-safe-dialog';
import { toast } from '@web/components/ui/use-toast';
import { FormErrorAlert } from '@web/components/form-parts';
import { describeError, isApiError } from '@web/lib/api-client';
import { useAuth } from '@web/lib/auth-provider';
import { changePassword, PASSWORD_TEXT } from '../passwords-api';

type TChangePasswordForm = z.input<typeof ZChangePasswordForm>;

const EMPTY: TChangePasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

interface ResetPasswordDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The dashboard's 'Reset Password': current, new and confirmation, all required. */
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

  const { user } = useAuth();
  const change = useMutation({
    mutationFn: (values: TChangePasswordForm) =>
      changePassword({
        userId: user?.id ?? 0,
        username: user?.username ?? '',
        currentPassword: values.currentPassword,
        newPassword: values.newPassword,
      }),
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
    <PendingSafeDialog
      open={open}
      onOpenChange={(isOpen) => (isOpen ? onOpenChange(true) : close())}
      isPending={change.isPending}
      title="Reset Password"
      description="Choose a new password for your account. You stay signed in here; any other sign-ins are ended."
      onSubmit={handleSubmit((values) => change.mutate(values))}
      submitLabel="Reset Password"
      pendingLabel="Resetting..."
    >
      {change.isError && !(isApiError(change.error) && change.error.fields) && (
        // The toast is outside the dialog, where a screen reader in the dialog cannot hear it.
        <FormErrorAlert
          title="Error"
          message={describeError(change.error, PASSWORD_TEXT.changeFailed)}
        />
      )}
      <FormField
        label="Current password"
        type="password"
        autoComplete="current-password"
        isRequired
        error={errors.currentPassword?.message}
        {...register('currentPassword')}
      />
      <NewPasswordFields control={control} register={register} name="newPassword" isRequired />
    </PendingSafeDialog>
  );
}
