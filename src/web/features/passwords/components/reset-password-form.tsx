import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { ZCompleteResetForm } from '@shared/schemas/passwords';
import { FormField } from '@web/components/ui/form-field';
import { EmailedCodeField } from '@web/components/emailed-code-field';
import { NewPasswordFields } from '@web/components/new-password-fields';
import { FormErrorAlert, FormSubmitButton } from '@web/components/form-parts';
import { isApiError } from '@web/lib/api-client';
import { completePasswordReset, PASSWORD_TEXT } from '../passwords-api';

type TResetForm = z.input<typeof ZCompleteResetForm>;
type TResetValues = z.output<typeof ZCompleteResetForm>;

interface ResetPasswordFormProps {
  defaultEmail?: string;
  defaultCode?: string;
  onReset: (message: string) => void;
}

/** Resetting a forgotten password: the emailed code and a new password. */
export function ResetPasswordForm({
  defaultEmail = '',
  defaultCode = '',
  onReset,
}: ResetPasswordFormProps) {
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<TResetForm, unknown, TResetValues>({
    resolver: zodResolver(ZCompleteResetForm),
    defaultValues: {
      email: defaultEmail,
      resetToken: defaultCode,
      newPassword: '',
      confirmPassword: '',
    },
  });

  const reset = useMutation({
    mutationFn: (values: TResetValues) =>
      completePasswordReset({
        email: values.email,
        resetToken: values.resetToken,
        newPassword: values.newPassword,
      }),
    onSuccess: (result) => onReset(result.message || PASSWORD_TEXT.resetSuccessful),
    onError: (error) => {
      if (!isApiError(error)) return;
      for (const [field, message] of Object.entries(error.fields ?? {})) {
        if (field === 'email' || field === 'resetToken' || field === 'newPassword')
          setError(field, { message });
      }
    },
  });

  return (
    <form
      noValidate
      onSubmit={handleSubmit((values) => reset.mutate(values))}
      className="flex flex-col gap-5"
    >
      {reset.isError && <FormErrorAlert title="Password not reset" message={reset.error.message} />}
      <FormField
        label="Email"
        type="email"
        inputMode="email"
        autoComplete="email"
        spellCheck={false}
        error={errors.email?.message}
        {...register('email')}
      />
      <EmailedCodeField
        label="Reset code"
        placeholder="ABCD-EF23"
        hint="The code in the email we sent you. It works for 30 minutes."
        error={errors.resetToken?.message}
        {...register('resetToken')}
      />
      <NewPasswordFields control={control} register={register} name="newPassword" />
      <FormSubmitButton
        isPending={reset.isPending}
        label="Reset Password"
        pendingLabel="Resetting..."
      />
    </form>
  );
}
