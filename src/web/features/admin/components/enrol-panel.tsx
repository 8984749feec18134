import { useRef, useState, type FormEvent } from 'react';
import { KeyRound, ShieldCheck, Smartphone } from 'lucide-react';
import type { TSecondFactorEnrolment } from '@shared/schemas/admin';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { describeError, isApiError } from '@web/lib/api-client';
import { confirmSecondFactor, enrolSecondFactor } from '../admin-api';
import { CodeField, cleanTotp } from './code-field';

const ENTER_CODE = 'Please enter the 6-digit code from your authenticator app';

/** The secret in groups of four, so it can be read out and typed into an app by hand. */
function groupSecret(secret: string): string[] {
  return secret.match(/.{1,4}/g) ?? [secret];
}

interface EnrolPanelProps {
  onConfirmed: (recoveryCodes: string[]) => void;
}

/** An admin's first visit adds Memento to an authenticator app and confirms it with one code. */
export function EnrolPanel({ onConfirmed }: EnrolPanelProps) {
  const [enrolment, setEnrolment] = useState<TSecondFactorEnrolment | null>(null);
  return (
    <Card asChild>
      <section aria-labelledby="enrol-title" className="w-full max-w-3xl">
        <CardHeader>
          <CardTitle id="enrol-title" className="flex items-center gap-3">
            <ShieldCheck className="size-7 shrink-0 text-primary" aria-hidden="true" />
            Set up two-step sign-in
          </CardTitle>
          <CardDescription className="text-lg">
            Admins can change and delete other people&apos;s accounts, so Memento asks for a second
            proof each time you open the admin dashboard: a 6-digit code from an authenticator app
            on your phone (for example Google Authenticator, Microsoft Authenticator or 2FAS).
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          {!enrolment ? (
            <BeginSetup onStarted={setEnrolment} />
          ) : (
            <EnrolSteps enrolment={enrolment} onConfirmed={onConfirmed} />
          )}
        </CardContent>
      </section>
    </Card>
  );
}

/** Before the secret is made: have the app ready, then 'Begin Setup'. */
function BeginSetup({ onStarted }: { onStarted: (enrolment: TSecondFactorEnrolment) => void }) {
  const [isStarting, setIsStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);

  async function start() {
    setIsStarting(true);
    setStartError(null);
    try {
      onStarted(await enrolSecondFactor());
    } catch (error) {
      setStartError(describeError(error, 'Setting up two-step sign-in failed. Please try again.'));
    } finally {
      setIsStarting(false);
    }
  }

  return (
    <>
      <p className="flex items-start gap-3 text-lg">
        <Smartphone className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
        Have your phone ready with an authenticator app installed, then press the button.
      </p>
      {startError && (
        <Alert variant="destructive" title="Setup could not start">
          <p>{startError}</p>
        </Alert>
      )}
      <div>
        <Button size="lg" onClick={start} disabled={isStarting}>
          <KeyRound aria-hidden="true" />
          {isStarting ? 'Preparing...' : 'Begin Setup'}
        </Button>
      </div>
    </>
  );
}

/** Scan the QR code (or type the key), then confirm with the code the app shows. */
function EnrolSteps({
  enrolment,
  onConfirmed,
}: EnrolPanelProps & { enrolment: TSecondFactorEnrolment }) {
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [isConfirming, setIsConfirming] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (code.length !== 6) {
      setCodeError(ENTER_CODE);
      codeRef.current?.focus();
      return;
    }
    setIsConfirming(true);
    setCodeError(null);
    try {
      const { recoveryCodes } = await confirmSecondFactor(code);
      onConfirmed(recoveryCodes);
    } catch (error) {
      setCodeError(
        isApiError(error) ? error.message : describeError(error, 'The code was not accepted'),
      );
      codeRef.current?.focus();
    } finally {
      setIsConfirming(false);
    }
  }

  return (
    <ol className="flex flex-col gap-6 text-lg">
      <li className="flex flex-col gap-3">
        <p>
          <span className="font-bold">1. Scan this QR code</span> with your authenticator app
          (choose &lsquo;Add account&rsquo; or the + button in the app).
        </p>
        <img
          src={enrolment.qrCodeDataUrl}
          alt="QR code for adding Memento to your authenticator app"
          width={208}
          height={208}
          className="size-52 self-center rounded-lg border border-border bg-white p-2 sm:self-start"
        />
      </li>
      <li className="flex flex-col gap-3">
        <p>
          <span className="font-bold">Cannot scan?</span> Choose &lsquo;Enter a setup key&rsquo; in
          the app and type this key:
        </p>
        <p
          className="flex flex-wrap gap-x-3 gap-y-1 rounded-lg bg-muted p-4 font-mono text-xl font-semibold tracking-wider break-all"
          data-testid="totp-secret"
        >
          {groupSecret(enrolment.secret).map((group, index) => (
            <span key={index}>{group}</span>
          ))}
        </p>
      </li>
      <li>
        <form noValidate onSubmit={confirm} className="flex flex-col gap-4">
          <p>
            <span className="font-bold">2. Enter the 6-digit code</span> the app now shows for
            Memento.
          </p>
          <CodeField
            ref={codeRef}
            kind="totp"
            label="6-digit code"
            isRequired
            value={code}
            onChange={(event) => setCode(cleanTotp(event.target.value))}
            error={codeError ?? undefined}
            className="max-w-xs"
          />
          <div>
            <Button type="submit" size="lg" disabled={isConfirming}>
              {isConfirming ? 'Checking...' : 'Confirm'}
            </Button>
          </div>
        </form>
      </li>
    </ol>
  );
}
