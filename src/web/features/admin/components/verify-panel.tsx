import { useRef, useState, type FormEvent } from 'react';
import { CircleAlert, LockKeyhole } from 'lucide-react';
import { ADMIN_MESSAGES } from '@shared/schemas/admin';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { describeError, isApiError } from '@web/lib/api-client';
import { verifySecondFactor } from '../admin-api';
import { CodeField, cleanTotp } from './code-field';

const MESSAGES = {
  totp: 'Please enter the 6-digit code from your authenticator app',
  recovery: 'Please enter one of your recovery codes',
  /** The server's INVALID_CODE text speaks of the app; a recovery code may also be used up. */
  recoveryInvalid:
    'That recovery code is not right, or it has been used before. Please check it and try again.',
} as const;

interface VerifyPanelProps {
  recoveryCodesLeft: number;
  onVerified: () => Promise<void>;
}

/** Every admin session starts with a code from the app, or a recovery code. */
export function VerifyPanel({ recoveryCodesLeft, onVerified }: VerifyPanelProps) {
  const [kind, setKind] = useState<'totp' | 'recovery'>('totp');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isThrottled, setIsThrottled] = useState(false);
  const [isChecking, setIsChecking] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);

  function switchKind() {
    setKind((current) => (current === 'totp' ? 'recovery' : 'totp'));
    setCode('');
    setError(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const isComplete = kind === 'totp' ? code.length === 6 : code.trim().length > 0;
    if (!isComplete) {
      setError(MESSAGES[kind]);
      codeRef.current?.focus();
      return;
    }
    setIsChecking(true);
    setError(null);
    setIsThrottled(false);
    try {
      await verifySecondFactor(code);
      await onVerified();
    } catch (reason) {
      if (isApiError(reason, 'RATE_LIMITED')) {
        setIsThrottled(true);
      } else {
        setError(
          kind === 'recovery' && isApiError(reason, 'INVALID_CODE')
            ? MESSAGES.recoveryInvalid
            : describeError(reason, ADMIN_MESSAGES.secondFactorInvalid),
        );
        codeRef.current?.focus();
      }
    } finally {
      setIsChecking(false);
    }
  }

  return (
    <Card asChild>
      <section aria-labelledby="verify-title" className="w-full max-w-2xl">
        <CardHeader>
          <CardTitle id="verify-title" className="flex items-center gap-3">
            <LockKeyhole className="size-7 shrink-0 text-primary" aria-hidden="true" />
            Confirm it is you
          </CardTitle>
          <CardDescription className="text-lg">
            {kind === 'totp'
              ? 'Open your authenticator app and enter the 6-digit code it shows for Memento. You are asked once each time you sign in.'
              : `Enter one of the recovery codes you saved when you set up two-step sign-in. Each code works once; you have ${recoveryCodesLeft} left.`}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={submit} className="flex flex-col gap-5">
            <CodeField
              key={kind}
              ref={codeRef}
              kind={kind}
              label={kind === 'totp' ? '6-digit code' : 'Recovery code'}
              hint={kind === 'recovery' ? 'For example: ABCD-EFGH-JKLM-NPQR' : undefined}
              isRequired
              value={code}
              onChange={(event) =>
                setCode(kind === 'totp' ? cleanTotp(event.target.value) : event.target.value)
              }
              error={error ?? undefined}
              className={kind === 'totp' ? 'max-w-xs' : 'max-w-md'}
            />
            {isThrottled && (
              <Alert
                variant="destructive"
                title="Please wait"
                icon={<CircleAlert aria-hidden="true" />}
              >
                <p>{ADMIN_MESSAGES.secondFactorRateLimited}</p>
              </Alert>
            )}
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
              <Button type="submit" size="lg" disabled={isChecking}>
                {isChecking ? 'Checking...' : 'Verify'}
              </Button>
              <Button variant="link" onClick={switchKind}>
                {kind === 'totp'
                  ? 'Use a recovery code instead'
                  : 'Use a code from my authenticator app'}
              </Button>
            </div>
            {kind === 'recovery' && (
              <p className="text-base text-muted-foreground">
                Lost your phone and your recovery codes too? Whoever runs the Memento server can
                turn two-step sign-in off for your account, so you can set it up again.
              </p>
            )}
          </form>
        </CardContent>
      </section>
    </Card>
  );
}
