import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { ONE_TIME_CODE_LENGTH, isWellFormedCode } from '@shared/domain/codes';
import { Button } from '@web/components/ui/button';
import { EmailedCodeField } from '@web/components/emailed-code-field';
import { cacheSignedIn, type TMoveCredentials } from '@web/lib/auth-api';
import { completeDeviceMove, requestDeviceMove, type TDeviceAction } from '../device-move-api';

const CODE_FORMAT_MESSAGE = 'The code has 8 letters and numbers, like ABCD-EF23';

function InlineError({ message }: { message: string }) {
  return (
    <p role="alert" className="flex items-start gap-2 text-base font-semibold text-destructive">
      <span aria-hidden="true">⚠</span>
      {message}
    </p>
  );
}

const ACTION_TEXT = {
  add: { submit: 'Add this device', busy: 'Adding this device...' },
  move: { submit: 'Move my account here', busy: 'Moving your account...' },
} as const;

interface ChooseDeviceActionProps {
  action: TDeviceAction;
  isPending: boolean;
  error: string | null;
  onChoose: (action: TDeviceAction) => void;
  keepsMessages: boolean;
}

/**
 * Why a person would move the account here. A device that keeps messages is most likely the old
 * one, left behind when the account moved on: asking it whether the old device was lost would
 * only confuse.
 */
function moveReason(keepsMessages: boolean) {
  return keepsMessages
    ? {
        question: 'Would you like your account back on this device?',
        detail:
          'Then you can move your account here again. Your other device will be signed out; the messages on it stay there.',
      }
    : {
        question: 'Was your old device lost, replaced or cleared?',
        detail:
          'Then you can move your account to this device. Videos saved on the old device stay there.',
      };
}

/** Add this device beside the others, or move the account here; either sends a code first. */
function ChooseDeviceAction({
  action,
  isPending,
  error,
  onChoose,
  keepsMessages,
}: ChooseDeviceActionProps) {
  const reason = moveReason(keepsMessages);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4">
        <p className="font-semibold">Would you like to use this device as well?</p>
        <p>
          With a Standard, Premium or Professional plan you can add this device to watch your
          messages from the cloud here too. We will email a code to your account&rsquo;s email
          address to check that it is you.
        </p>
        <div>
          <Button onClick={() => onChoose('add')} disabled={isPending}>
            {isPending && action === 'add' ? 'Sending code...' : 'Add this device'}
          </Button>
        </div>
      </div>
      <div className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4">
        <p className="font-semibold">{reason.question}</p>
        <p>
          {reason.detail} We will email a code to your account&rsquo;s email address to check that
          it is you.
        </p>
        <div>
          <Button variant="outline" onClick={() => onChoose('move')} disabled={isPending}>
            {isPending && action === 'move' ? 'Sending code...' : 'Use this device instead'}
          </Button>
        </div>
      </div>
      {error !== null && <InlineError message={error} />}
    </div>
  );
}

/**
 * On 'Device Access Denied', the owner proves it is them (the password just typed and a code
 * sent to the account's email) and either adds this device beside their others (paid plans)
 * or moves the account here from a lost or wiped device.
 */
export function DeviceMovePanel({
  credentials,
  keepsMessages = false,
}: {
  credentials: TMoveCredentials;
  /** This device keeps messages: most likely the old device the account moved away from. */
  keepsMessages?: boolean;
}) {
  const codeId = useId();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [action, setAction] = useState<TDeviceAction>('move');

  const [sentTo, setSentTo] = useState<string | null>(null);

  const request = useMutation({
    mutationFn: (chosen: TDeviceAction) => requestDeviceMove(credentials, chosen),
    onSuccess: (result) => setSentTo(result.maskedEmail),
  });
  const complete = useMutation({
    mutationFn: (entered: string) => completeDeviceMove(credentials, entered, action),
    onSuccess: (user) => {
      cacheSignedIn(user);
      // A full load, so everything starts afresh as this account on this device.
      window.location.assign('/');
    },
  });

  function onSubmitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!code.trim()) {
      setCodeError('Please enter the code from the email');
      return;
    }
    if (!isWellFormedCode(code, ONE_TIME_CODE_LENGTH)) {
      setCodeError(CODE_FORMAT_MESSAGE);
      return;
    }
    setCodeError(null);
    complete.mutate(code);
  }

  const ask = (chosen: TDeviceAction) => {
    setAction(chosen);
    request.mutate(chosen);
  };

  if (sentTo === null) {
    return (
      <ChooseDeviceAction
        action={action}
        isPending={request.isPending}
        error={request.isError ? request.error.message : null}
        onChoose={ask}
        keepsMessages={keepsMessages}
      />
    );
  }

  const isMoving = complete.isPending || complete.isSuccess;
  return (
    <form
      noValidate
      onSubmit={onSubmitCode}
      className="flex flex-col gap-4 rounded-lg border border-border bg-card p-4"
    >
      <p role="status" className="flex items-start gap-3 font-semibold">
        <MailCheck className="mt-0.5 size-6 shrink-0 text-success" aria-hidden="true" />
        {request.isPending ? (
          <span>Sending a new code...</span>
        ) : (
          <span>
            We sent a code to <span className="break-all">{sentTo}</span>. It works for 30 minutes.
          </span>
        )}
      </p>
      <EmailedCodeField
        id={codeId}
        placeholder="ABCD-EF23"
        className="max-w-xs"
        value={code}
        onChange={(event) => setCode(event.target.value)}
        error={codeError ?? undefined}
      />
      {complete.isError && <InlineError message={complete.error.message} />}
      {request.isError && <InlineError message={request.error.message} />}
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        <Button type="submit" disabled={isMoving}>
          {isMoving ? ACTION_TEXT[action].busy : ACTION_TEXT[action].submit}
        </Button>
        <Button
          variant="ghost"
          disabled={isMoving || request.isPending}
          onClick={() => {
            setCode('');
            complete.reset();
            request.mutate(action);
          }}
        >
          Send a new code
        </Button>
      </div>
    </form>
  );
}
