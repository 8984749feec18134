import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ZLoginForm, type TLoginForm } from '@shared/schemas/auth';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { useAuth } from '@web/features/auth/auth-provider';

interface LoginFormProps {
  /** The failure, with what was typed (the device move needs it); null when starting again. */
  onError: (error: Error | null, credentials?: TLoginForm) => void;
}

export function LoginForm({ onError }: LoginFormProps) {
  const { login } = useAuth();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<TLoginForm>({
    resolver: zodResolver(ZLoginForm),
    defaultValues: { username: '', password: '' },
  });

  async function onSubmit(values: TLoginForm) {
    onError(null);
    try {
      await login(values);
    } catch (error) {
      onError(error instanceof Error ? error : new Error('Login failed'), values);
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="flex flex-col gap-5">
      <FormField
        label="Username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.username?.message}
        {...register('username')}
      />
      <FormField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <Button type="submit" size="lg" disabled={isSubmitting} className="mt-1 w-full">
        {isSubmitting ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}
