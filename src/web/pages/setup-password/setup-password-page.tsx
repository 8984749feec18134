import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { ZSetupPasswordForm } from '@shared/schemas/passwords';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { NewPasswordFields } from '@web/components/new-password-fields';
import { FormErrorAlert, FormSubmitButton } from '@web/components/form-parts';
import { useAuth } from '@web/lib/auth-provider';
import { PASSWORD_TEXT, setupPassword } from '@web/features/passwords/passwords-api';
import { describeError } from '@web/lib/api-client';
import { usePageTitle } from '@web/lib/use-page-title';

type TSetupPasswordForm = z.input<typeof ZSetupPasswordForm>;

/** An account set up by someone else gets a password chosen by its owner before anything else. */
export default function SetupPasswordPage() {
  usePageTitle('Set Your Password');
  const { user } = useAuth();
  const { register, control, handleSubmit } = useForm<TSetupPasswordForm>({
    resolver: zodResolver(ZSetupPasswordForm),
    defaultValues: { password: '', confirmPassword: '' },
  });

  const setup = useMutation({
    mutationFn: (values: TSetupPasswordForm) => setupPassword(values.password),
    // A full load, so every part of the app sees the account as it now is.
    onSuccess: () => window.location.assign('/'),
  });
  const isBusy = setup.isPending || setup.isSuccess;

  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-6">
      <Card>
        <CardHeader className="gap-2">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Set Your Password</h1>
          <p className="text-lg text-muted-foreground">
            {user ? `Welcome, ${user.firstName}. ` : ''}Before you go on, please choose your own
            password. You will use it with your username,{' '}
            <strong className="break-all text-foreground">{user?.username}</strong>, to sign in.
          </p>
        </CardHeader>
        <CardContent>
          <form
            noValidate
            onSubmit={handleSubmit((values) => setup.mutate(values))}
            className="flex flex-col gap-5"
          >
            {setup.isError && (
              <FormErrorAlert
                title="Password not set"
                message={describeError(setup.error, PASSWORD_TEXT.setupFailed)}
              />
            )}
            <NewPasswordFields
              control={control}
              register={register}
              name="password"
              label="New Password"
              confirmLabel="Confirm Password"
            />
            <FormSubmitButton
              isPending={isBusy}
              label="Set Password"
              pendingLabel="Setting up..."
            />
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
