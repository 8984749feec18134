import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { CircleAlert } from 'lucide-react';
import { PASSWORD_MESSAGES } from '@shared/domain/passwords';
import { ZEmail, ZNewPassword } from '@shared/schemas/common';
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
import { describeError } from '@web/lib/api-client';
import { breakGlassReset, EMERGENCY_TEXT } from '../emergency-api';
import { NewPasswordField } from '@web/features/auth/components/new-password-field';

/** The dashboard variant of ZBreakGlassForm: the signed-in session stands in for the code. */
const ZDashboardBreakGlassForm = z
  .object({ nextOfKinEmail: ZEmail, newPassword: ZNewPassword, confirmPassword: z.string() })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: PASSWORD_MESSAGES.mismatch,
    path: ['confirmPassword'],
  });
type TDashboardBreakGlassForm = z.input<typeof ZDashboardBreakGlassForm>;
type TDashboardBreakGlassValues = z.output<typeof ZDashboardBreakGlassForm>;

const EMPTY: TDashboardBreakGlassForm = {
  nextOfKinEmail: '',
  newPassword: '',
  confirmPassword: '',
};

interface NextOfKinEmergencyDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** SPEC §2: for a next of kin signed in on the dashboard (D11 rules apply on the server). */
export function NextOfKinEmergencyDialog({ open, onOpenChange }: NextOfKinEmergencyDialogProps) {
  const {
    register,
    control,
    handleSubmit,
    reset: resetForm,
    formState: { errors },
  } = useForm<TDashboardBreakGlassForm, unknown, TDashboardBreakGlassValues>({
    resolver: zodResolver(ZDashboardBreakGlassForm),
    defaultValues: EMPTY,
  });
  const newPassword = useWatch({ control, name: 'newPassword' });

  const reset = useMutation({
    mutationFn: (values: TDashboardBreakGlassValues) =>
      breakGlassReset({ nextOfKinEmail: values.nextOfKinEmail, newPassword: values.newPassword }),
    onSuccess: (result) => {
      toast({ variant: 'success', title: 'Password reset', description: result.message });
      close();
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: EMERGENCY_TEXT.failed,
        description: describeError(error, EMERGENCY_TEXT.failed),
      });
    },
  });

  function close() {
    onOpenChange(false);
    resetForm(EMPTY);
    reset.reset();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(isOpen) => {
        if (isOpen) onOpenChange(true);
        else if (!reset.isPending) close();
      }}
    >
      <DialogContent>
        <form
          noValidate
          onSubmit={handleSubmit((values) => reset.mutate(values))}
          className="flex flex-col gap-5"
        >
          <DialogHeader>
            <DialogTitle>{EMERGENCY_TEXT.dialogTitle}</DialogTitle>
            <DialogDescription>
              As their next of kin you can set a new password for the account of the person who
              chose you. They are signed out everywhere and told by email, and you are sent a new
              emergency code.
            </DialogDescription>
          </DialogHeader>

          {reset.isError && (
            // The toast is outside the dialog, where a screen reader in the dialog cannot hear it.
            <Alert
              variant="destructive"
              title={EMERGENCY_TEXT.failed}
              icon={<CircleAlert aria-hidden="true" />}
            >
              <p>{describeError(reset.error, EMERGENCY_TEXT.failed)}</p>
            </Alert>
          )}
          <FormField
            label="Your email"
            type="email"
            inputMode="email"
            autoComplete="email"
            spellCheck={false}
            isRequired
            error={errors.nextOfKinEmail?.message}
            {...register('nextOfKinEmail')}
          />
          <NewPasswordField
            label="New password for their account"
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
              <Button variant="outline" disabled={reset.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={reset.isPending}>
              {reset.isPending ? 'Resetting...' : 'Reset Password'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
