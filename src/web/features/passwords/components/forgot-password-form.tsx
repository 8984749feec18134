import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { ZForgotPasswordBody } from '@shared/schemas/passwords';
import { FormField } from '@web/components/ui/form-field';
import { toast } from '@web/components/ui/use-toast';
import { FormSubmitButton } from '@web/components/form-parts';
import { describeError } from '@web/lib/api-client';
import { requestPasswordReset } from '../passwords-api';

type TForgotPasswordForm = z.input<typeof ZForgotPasswordBody>;
type TForgotPasswordValues = z.output<typeof ZForgotPasswordBody>;

interface ForgotPasswordFormProps {
  defaultEmail?: string;
  onSent: (email: string, message: string) => void;
}

/** Forgot password: the answer never says whether the account exists. */
export function ForgotPasswordForm({ defaultEmail = '', onSent }: ForgotPasswordFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TForgotPasswordForm, unknown, TForgotPasswordValues>({
    resolver: zodResolver(ZForgotPasswordBody),
    defaultValues: { email: defaultEmail },
  });

  const send = useMutation({
    mutationFn: (values: TForgotPasswordValues) => requestPasswordReset(values.email),
    onSuccess: (result, values) => onSent(values.email, result.message),
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Could not send the reset code',
        description: describeError(error, 'Please try again.'),
      });
    },
  });

  return (
    <form
      noValidate
      onSubmit={handleSubmit((values) => send.mutate(values))}
      className="flex flex-col gap-5"
    >
      <FormField
        label="Email"
        type="email"
        inputMode="email"
        autoComplete="email"
        spellCheck={false}
        hint="The email address of your Memento account."
        error={errors.email?.message}
        {...register('email')}
      />
      {send.isError && (
        <p role="alert" className="text-base font-semibold text-destructive">
          {send.error.message}
        </p>
      )}
      <FormSubmitButton
        isPending={send.isPending}
        label="Send Reset Code"
        pendingLabel="Sending..."
      />
    </form>
  );
}
