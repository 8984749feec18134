import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { ZEmail, ZNewPassword, confirmsPassword } from '@shared/schemas/common';
import { FormField } from '@web/components/ui/form-field';
import { NewPasswordFields } from '@web/components/new-password-fields';
import { PendingSafeDialog } from '@web/components/pending-safe-dialog';
import { toast } from '@web/components/ui/use-toast';
import { FormErrorAlert } from '@web/components/form-parts';
import { describeError } from '@web/lib/api-client';
import { resetWithEmergencyCode, EMERGENCY_TEXT } from '../emergency-access-api';

/** The dashboard variant of ZEmergencyAccessForm: the signed-in session stands in for the code. */
const ZDashboardEmergencyAccessForm = z
  .object({ nextOfKinEmail: ZEmail, newPassword: ZNewPassword, confirmPassword: z.string() })
  .refine(...confirmsPassword('newPassword'));
type TDashboardEmergencyAccessForm = z.input<typeof ZDashboardEmergencyAccessForm>;
type TDashboardEmergencyAccessValues = z.output<typeof ZDashboardEmergencyAccessForm>;

const EMPTY: TDashboardEmergencyAccessForm = {
  nextOfKinEmail: '',
  newPassword: '',
  confirmPassword: '',
};

interface NextOfKinEmergencyDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Emergency access for a next of kin signed in on the dashboard; the server checks who may. */
export function NextOfKinEmergencyDialog({ open, onOpenChange }: NextOfKinEmergencyDialogProps) {
  const {
    register,
    control,
    handleSubmit,
    reset: resetForm,
    formState: { errors },
  } = useForm<TDashboardEmergencyAccessForm, unknown, TDashboardEmergencyAccessValues>({
    resolver: zodResolver(ZDashboardEmergencyAccessForm),
    defaultValues: EMPTY,
  });

  const reset = useMutation({
    mutationFn: (values: TDashboardEmergencyAccessValues) =>
      resetWithEmergencyCode({
        nextOfKinEmail: values.nextOfKinEmail,
        newPassword: values.newPassword,
      }),
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
    <PendingSafeDialog
      open={open}
      onOpenChange={(isOpen) => (isOpen ? onOpenChange(true) : close())}
      isPending={reset.isPending}
      title={EMERGENCY_TEXT.dialogTitle}
      description="As their next of kin you can set a new password for the account of the person who chose you. They are signed out everywhere and told by email, and you are sent a new emergency code."
      onSubmit={handleSubmit((values) => reset.mutate(values))}
      submitLabel="Reset Password"
      pendingLabel="Resetting..."
    >
      {reset.isError && (
        // The toast is outside the dialog, where a screen reader in the dialog cannot hear it.
        <FormErrorAlert
          title={EMERGENCY_TEXT.failed}
          message={describeError(reset.error, EMERGENCY_TEXT.failed)}
        />
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
      <NewPasswordFields
        control={control}
        register={register}
        name="newPassword"
        label="New password for their account"
        isRequired
      />
    </PendingSafeDialog>
  );
}
