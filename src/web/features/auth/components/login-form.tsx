import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { KeyRound, Mail } from 'lucide-react';
import type { TAccessCodeLoginForm, TLoginForm } from '@shared/schemas/auth';
import { FormField } from '@web/components/ui/form-field';
import { EmailedCodeField } from '@web/components/emailed-code-field';
import { FormSubmitButton } from '@web/components/form-parts';
import { useAuth } from '@web/lib/auth-provider';
import { lazyResolver } from '@web/lib/lazy-resolver';
import { cn } from '@web/lib/utils';

const passwordLoginResolver = lazyResolver<TLoginForm>(() =>
  import('./login-resolvers').then((module) => module.passwordLoginResolver),
);
const accessCodeLoginResolver = lazyResolver<TAccessCodeLoginForm>(() =>
  import('./login-resolvers').then((module) => module.accessCodeLoginResolver),
);

type TMethod = 'username_password' | 'email_access_code';

interface LoginFormProps {
  /** The failure, with what was typed (the device move needs it); null when starting again. */
  onError: (error: Error | null, credentials?: TLoginForm) => void;
}

/** A printed card's email and code (its QR opens /auth with them), to fill the recipient's form. */
export interface TCardPrefill {
  email: string;
  code: string;
}

const METHODS: { value: TMethod; label: string; hint: string; icon: typeof KeyRound }[] = [
  {
    value: 'username_password',
    label: 'Username and password',
    hint: 'For the person who records messages',
    icon: KeyRound,
  },
  {
    value: 'email_access_code',
    label: 'Recipient email and access code',
    hint: 'For family and friends who were sent a code',
    icon: Mail,
  },
];

/** Login: a choice of method, then the matching form (the recipient's, filled from a card). */
export function LoginForm({ onError, card }: LoginFormProps & { card?: TCardPrefill | null }) {
  const [method, setMethod] = useState<TMethod>(card ? 'email_access_code' : 'username_password');
  const groupLabelId = useId();

  function choose(next: TMethod) {
    onError(null);
    setMethod(next);
  }

  return (
    <div className="flex flex-col gap-6">
      <fieldset className="flex flex-col gap-3">
        <legend id={groupLabelId} className="mb-3 text-lg font-semibold">
          How do you sign in?
        </legend>
        <div className="grid gap-3 sm:grid-cols-2">
          {METHODS.map(({ value, label, hint, icon: Icon }) => (
            <label
              key={value}
              className={cn(
                'flex min-h-16 cursor-pointer items-start gap-3 rounded-xl border-2 p-4 transition-colors',
                'has-[:focus-visible]:ring-4 has-[:focus-visible]:ring-ring/40',
                method === value
                  ? 'border-primary bg-primary/5'
                  : 'border-border hover:border-primary/50',
              )}
            >
              <input
                type="radio"
                name="login-method"
                value={value}
                checked={method === value}
                onChange={() => choose(value)}
                className="mt-1 size-5 shrink-0 accent-[var(--color-primary)]"
              />
              <span className="flex flex-col gap-1">
                <span className="flex items-center gap-2 font-semibold">
                  <Icon className="size-5 text-primary" aria-hidden="true" />
                  {label}
                </span>
                <span className="text-base text-muted-foreground">{hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {method === 'username_password' ? (
        <PasswordLoginForm onError={onError} />
      ) : (
        <AccessCodeLoginForm onError={onError} card={card ?? null} />
      )}
    </div>
  );
}

function PasswordLoginForm({ onError }: LoginFormProps) {
  const { login } = useAuth();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<TLoginForm>({
    resolver: passwordLoginResolver,
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
      <FormSubmitButton
        isPending={isSubmitting}
        label="Sign In"
        pendingLabel="Signing in..."
        className="mt-1"
      />
    </form>
  );
}

function AccessCodeLoginForm({
  onError,
  card,
}: Pick<LoginFormProps, 'onError'> & { card: TCardPrefill | null }) {
  const { login } = useAuth();
  const [isChecking, setIsChecking] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<TAccessCodeLoginForm>({
    resolver: accessCodeLoginResolver,
    defaultValues: { email: card?.email ?? '', accessCode: card?.code ?? '' },
  });

  async function onSubmit(values: TAccessCodeLoginForm) {
    onError(null);
    try {
      // The code never leaves this device: its proof goes instead, and its key half stays here
      // to open the keys of the messages sealed for this person.
      setIsChecking(true);
      const { proveCode } = await import('@web/lib/encryption/code-sign-in');
      const proof = await proveCode(values.email, values.accessCode).finally(() =>
        setIsChecking(false),
      );
      await login({
        username: values.email,
        password: values.accessCode,
        method: 'email_access_code',
        codeProof: proof.codeProof,
        onRecipientKeys: proof.keepRecipientKeys,
      });
    } catch (error) {
      onError(error instanceof Error ? error : new Error('Login failed'));
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="flex flex-col gap-5">
      <FormField
        label="Your email address"
        type="email"
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.email?.message}
        {...register('email')}
      />
      <EmailedCodeField
        label="Access code"
        hint="16 letters and numbers, like ABCD-EFGH-JKLM-NP23, from your Memento card or the email you were sent. Capitals and dashes do not matter."
        error={errors.accessCode?.message}
        {...register('accessCode')}
      />
      <FormSubmitButton
        isPending={isSubmitting}
        label="Sign In"
        pendingLabel={isChecking ? 'Checking your code…' : 'Signing in...'}
        className="mt-1"
      />
    </form>
  );
}
