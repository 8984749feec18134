import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound } from 'lucide-react';
import {
  ZAdminResetPasswordForm,
  type TAdminResetPasswordForm,
  type TAdminUser,
} from '@shared/schemas/admin';
import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { toast } from '@web/components/ui/use-toast';
import { NewPasswordFields } from '@web/components/new-password-fields';
import { describeError } from '@web/lib/api-client';
import { sendWithNewPassword } from '@web/lib/encryption/password-proof';
import { resetUserPassword } from '../admin-api';
import { fullName } from '../admin-format';
import { ReasonField } from './reason-field';

export const RESET_TOASTS = {
  success: 'User password has been reset successfully',
  error: 'Error resetting password',
  fallback: 'Failed to reset password',
} as const;

interface TResetForm {
  newPassword: string;
  reason: string;
}

interface ResetPasswordDialogProps {
  user: TAdminUser | null;
  onOpenChange: (open: boolean) => void;
}

/** An admin sets a temporary password; the user chooses their own at the next sign-in. */
export function ResetPasswordDialog({ user, onOpenChange }: ResetPasswordDialogProps) {
  return (
    <Dialog open={user !== null} onOpenChange={onOpenChange}>
      <DialogContent>
        {user && <ResetPasswordForm key={user.id} user={user} onOpenChange={onOpenChange} />}
      </DialogContent>
    </Dialog>
  );
}

function ResetPasswordForm({
  user,
  onOpenChange,
}: {
  user: TAdminUser;
  onOpenChange: (open: boolean) => void;
}) {
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitting },
  } = useForm<TResetForm, unknown, TAdminResetPasswordForm>({
    resolver: zodResolver(ZAdminResetPasswordForm),
    defaultValues: { newPassword: '', reason: '' },
  });

  async function onSubmit(values: TAdminResetPasswordForm) {
    try {
      // For an account with enhanced encryption on, only the password's proof is sent.
      const { message } = await sendWithNewPassword(values.newPassword, (field) =>
        resetUserPassword(user.id, { ...field, reason: values.reason }),
      );
      toast({
        variant: 'success',
        title: RESET_TOASTS.success,
        description: message,
      });
      onOpenChange(false);
    } catch (error) {
      toast({
        variant: 'destructive',
        title: RESET_TOASTS.error,
        description: describeError(error, RESET_TOASTS.fallback),
      });
    }
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Reset Password</DialogTitle>
        <DialogDescription>
          Give {fullName(user) || user.username} ({user.username}) a temporary password. They are
          emailed that it was reset, and must choose their own password the next time they sign in.
          Tell them the temporary password in person or by phone.
        </DialogDescription>
      </DialogHeader>
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="flex flex-col gap-5">
        <NewPasswordFields
          control={control}
          register={register}
          name="newPassword"
          confirmName={null}
          isRequired
        />
        <ReasonField
          hint="For example: forgot password, asked at the front desk"
          error={errors.reason?.message}
          {...register('reason')}
        />
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={isSubmitting}>
            <KeyRound aria-hidden="true" />
            {isSubmitting ? 'Resetting...' : 'Reset Password'}
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}
