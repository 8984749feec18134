import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { ZEmergencyAccessForm } from '@shared/schemas/emergency-access';
import { FormField } from '@web/components/ui/form-field';
import { NewPasswordFields } from '@web/components/new-password-fields';
import { toast } from '@web/components/ui/use-toast';
import { FormErrorAlert, FormSubmitButton } from '@web/components/form-parts';
import { describeError } from '@web/lib/api-client';
import { resetWithProvenCode, EMERGENCY_TEXT } from '../emergency-access-api';

type TEmergencyAccessForm = z.input<typeof ZEmergencyAccessForm>;
type TEmergencyAccessValues = z.output<typeof ZEmergencyAccessForm>;

interface EmergencyAccessFormProps {
  onReset: (message: string) => void;
}

/** Emergency access: a next of kin's email, their emergency code and a new password. */
export function EmergencyAccessForm({ onReset }: EmergencyAccessFormProps) {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<TEmergencyAccessForm, unknown, TEmergencyAccessValues>({
    resolver: zodResolver(ZEmergencyAccessForm),
    defaultValues: { nextOfKinEmail: '', emergencyCode: '', newPassword: '', confirmPassword: '' },
  });

  const [isChecking, setIsChecking] = useState(false);
  const reset = useMutation({
    mutationFn: (values: TEmergencyAccessValues) =>
      resetWithProvenCode({
        nextOfKinEmail: values.nextOfKinEmail,
        emergencyCode: values.emergencyCode,
        newPassword: values.newPassword,
        onProven: () => setIsChecking(false),
      }).finally(() => setIsChecking(false)),
    onMutate: () => setIsChecking(true),
    onSuccess: (result) => onReset(result.message),
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: EMERGENCY_TEXT.failed,
        description: describeError(error, EMERGENCY_TEXT.failed),
      });
    },
  });

  return (
    <form
      noValidate
      onSubmit={handleSubmit((values) => reset.mutate(values))}
      className="flex flex-col gap-5"
    >
      {reset.isError && (
        <FormErrorAlert title={EMERGENCY_TEXT.failed} message={reset.error.message} />
      )}
      <FormField
        label="Your email"
        type="email"
        inputMode="email"
        autoComplete="email"
        spellCheck={false}
        hint="The address the emergency code was sent to."
        error={errors.nextOfKinEmail?.message}
        {...register('nextOfKinEmail')}
      />
      <FormField
        label="Emergency code"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        placeholder={EMERGENCY_TEXT.codePlaceholder}
        hint="16 letters and numbers, from your Memento card or the email. Capitals, spaces and dashes do not matter."
        error={errors.emergencyCode?.message}
        {...register('emergencyCode')}
      />
      <NewPasswordFields
        control={control}
        register={register}
        name="newPassword"
        label="New password for their account"
        hint="Write it down somewhere safe: this becomes the password of the account."
      />
      <FormSubmitButton
        isPending={reset.isPending}
        label="Reset Password"
        pendingLabel={isChecking ? 'Checking your code…' : 'Resetting...'}
      />
    </form>
  );
}
