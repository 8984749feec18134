import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { ZRegisterForm, type TRegisterForm } from '@shared/schemas/auth';
import { FormField } from '@web/components/ui/form-field';
import { NewPasswordFields } from '@web/components/new-password-fields';
import { PersonFields } from '@web/components/person-fields';
import { FormSubmitButton } from '@web/components/form-parts';
import { useAuth } from '@web/lib/auth-provider';
import { isApiError } from '@web/lib/api-client';
import { TermsOfServiceDialog } from '@web/components/terms-of-service-dialog';

type TRegisterValues = z.output<typeof ZRegisterForm>;
type TFieldName = keyof TRegisterForm;

const FIELD_NAMES: readonly TFieldName[] = [
  'firstName',
  'lastName',
  'email',
  'username',
  'password',
  'confirmPassword',
];

function isFieldName(name: string): name is TFieldName {
  return (FIELD_NAMES as readonly string[]).includes(name);
}

interface RegisterFormProps {
  onError: (error: Error | null) => void;
}

export function RegisterForm({ onError }: RegisterFormProps) {
  const { register: registerAccount } = useAuth();
  const [pendingValues, setPendingValues] = useState<TRegisterValues | null>(null);
  const [isCreating, setIsCreating] = useState(false);
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors },
  } = useForm<TRegisterForm, unknown, TRegisterValues>({
    resolver: zodResolver(ZRegisterForm),
    defaultValues: {
      firstName: '',
      lastName: '',
      email: '',
      username: '',
      password: '',
      confirmPassword: '',
    },
  });

  async function createAccount(values: TRegisterValues) {
    setPendingValues(null);
    setIsCreating(true);
    onError(null);
    try {
      await registerAccount({
        firstName: values.firstName,
        lastName: values.lastName,
        email: values.email,
        username: values.username,
        password: values.password,
        tosAcceptedAt: new Date().toISOString(),
      });
    } catch (error) {
      const failure = error instanceof Error ? error : new Error('Registration failed');
      if (isApiError(failure)) {
        for (const [field, message] of Object.entries(failure.fields ?? {})) {
          if (isFieldName(field)) setError(field, { message });
        }
        if (failure.code === 'USERNAME_TAKEN') setError('username', { message: failure.message });
        if (failure.code === 'EMAIL_TAKEN') setError('email', { message: failure.message });
      }
      onError(failure);
    } finally {
      setIsCreating(false);
    }
  }

  return (
    <>
      <form
        noValidate
        onSubmit={handleSubmit((values) => setPendingValues(values))}
        className="flex flex-col gap-5"
      >
        <PersonFields control={control} register={register} />
        <FormField
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          hint="Letters, numbers, dots, dashes or underscores. You will use it to sign in."
          error={errors.username?.message}
          {...register('username')}
        />
        <NewPasswordFields
          control={control}
          register={register}
          name="password"
          label="Password"
          confirmLabel="Confirm password"
        />
        <FormSubmitButton
          isPending={isCreating}
          label="Create Account"
          pendingLabel="Creating account..."
          className="mt-1"
        />
      </form>

      <TermsOfServiceDialog
        open={pendingValues !== null}
        onOpenChange={(isOpen) => {
          if (!isOpen) setPendingValues(null);
        }}
        onAccept={() => {
          if (pendingValues) void createAccount(pendingValues);
        }}
      />
    </>
  );
}
