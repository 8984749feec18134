import { Suspense } from 'react';
import type { TLoginForm } from '@shared/schemas/auth';
import { Spinner } from '@web/components/ui/spinner';
import { lazyNamed } from '@web/lib/lazy-named';
import { PASSWORD_TEXT } from '@web/features/passwords/passwords-api';
import type { TNotice, TView } from './auth-views';

// Signing in is the first screen; the other views load when they are needed.
const RegisterForm = lazyNamed(
  () => import('@web/features/auth/components/register-form'),
  'RegisterForm',
);
const EmergencyAccessForm = lazyNamed(
  () => import('@web/features/emergency-access/components/emergency-access-form'),
  'EmergencyAccessForm',
);
const ForgotPasswordForm = lazyNamed(
  () => import('@web/features/passwords/components/forgot-password-form'),
  'ForgotPasswordForm',
);
const ResetPasswordForm = lazyNamed(
  () => import('@web/features/passwords/components/reset-password-form'),
  'ResetPasswordForm',
);

type TPrefill = { email?: string; code?: string };

interface OtherViewFormsProps {
  view: TView;
  prefill: TPrefill;
  setPrefill: (prefill: TPrefill) => void;
  onError: (error: Error | null, credentials?: TLoginForm) => void;
  switchTo: (view: TView, notice?: TNotice | null) => void;
}

/** The form of every view but signing in: registration, the forgotten password, emergency access. */
export function OtherViewForms({
  view,
  prefill,
  setPrefill,
  onError,
  switchTo,
}: OtherViewFormsProps) {
  function onCodeSent(email: string, message: string) {
    setPrefill({ email });
    switchTo('reset_password', {
      view: 'reset_password',
      variant: 'info',
      title: PASSWORD_TEXT.resetInstructionsSent,
      message,
    });
  }

  function onPasswordReset() {
    setPrefill({});
    switchTo('login', {
      view: 'login',
      variant: 'success',
      title: PASSWORD_TEXT.resetSuccessful,
      message: 'You can now sign in with your new password.',
    });
  }

  function onEmergencyReset(message: string) {
    switchTo('login', {
      view: 'login',
      variant: 'success',
      title: 'Password reset with emergency access',
      message,
    });
  }

  return (
    <Suspense fallback={<Spinner className="mx-auto size-10" label="Loading" />}>
      {view === 'register' && <RegisterForm key="register" onError={onError} />}
      {view === 'forgot_password' && (
        <ForgotPasswordForm key="forgot_password" onSent={onCodeSent} />
      )}
      {view === 'reset_password' && (
        <ResetPasswordForm
          key={`reset_password-${prefill.email ?? ''}-${prefill.code ?? ''}`}
          defaultEmail={prefill.email}
          defaultCode={prefill.code}
          onReset={onPasswordReset}
        />
      )}
      {view === 'break_glass' && (
        <EmergencyAccessForm key="break_glass" onReset={onEmergencyReset} />
      )}
    </Suspense>
  );
}
