import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Lock } from 'lucide-react';
import type { TStationResident } from '@shared/schemas/stations';
import { STATION_SEALING_MESSAGES } from '@shared/schemas/station-sealing';
import { isSealingError, type TKdfParams } from '@shared/sealing';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Label } from '@web/components/ui/label';
import { PasswordInput } from '@web/components/ui/password-input';
import { PageSpinner } from '@web/components/ui/spinner';
import {
  dropStationKey,
  fetchStationSealing,
  holdsStationKeyFor,
  onStationKeyDropped,
  unlockForResident,
} from '@web/features/stations/station-key';
import { describeError } from '@web/lib/api-client';

type TGate =
  | { name: 'checking' }
  | { name: 'failed'; message: string }
  | { name: 'plain' }
  | { name: 'password'; passwordKdf: TKdfParams }
  | { name: 'no-password'; passwordKdf: TKdfParams | null }
  | { name: 'open' };

/**
 * Before a resident with enhanced encryption on records at a station: they type their own
 * password, which opens their key in this page's memory. Without it there is no other way.
 * Residents without it go straight on. The key goes when this screen does.
 */
export function SealedResidentGate({
  resident,
  onFinish,
  children,
}: {
  resident: TStationResident;
  onFinish: () => void;
  children: (isSealed: boolean) => ReactNode;
}) {
  const [gate, setGate] = useState<TGate>({ name: 'checking' });

  useEffect(() => {
    let isCurrent = true;
    let passwordKdf: TKdfParams | null = null;
    fetchStationSealing().then(
      (sealing) => {
        if (!isCurrent) return;
        if (!sealing.isSealed) {
          setGate({ name: 'plain' });
          return;
        }
        passwordKdf = sealing.passwordKdf;
        if (holdsStationKeyFor(resident.id)) setGate({ name: 'open' });
        else if (!passwordKdf) setGate({ name: 'no-password', passwordKdf: null });
        else setGate({ name: 'password', passwordKdf });
      },
      (caught: unknown) => {
        if (!isCurrent) return;
        setGate({ name: 'failed', message: describeError(caught, 'Please try again.') });
      },
    );
    // Dropped while recording (the page was hidden, say): the password is asked for again.
    const stopListening = onStationKeyDropped(() => {
      if (passwordKdf) setGate({ name: 'password', passwordKdf });
    });
    return () => {
      isCurrent = false;
      stopListening();
      dropStationKey();
    };
  }, [resident.id]);

  if (gate.name === 'checking') return <PageSpinner label="Getting ready to record" />;
  if (gate.name === 'plain') return children(false);
  if (gate.name === 'open') return children(true);
  if (gate.name === 'failed') {
    return (
      <section aria-labelledby="station-sealed-failed" className="flex flex-col gap-5">
        <h1 id="station-sealed-failed" className="text-3xl font-bold tracking-tight sm:text-4xl">
          Recording for {resident.name}
        </h1>
        <Alert variant="destructive" title="Something went wrong">
          <p>{gate.message}</p>
        </Alert>
        <FinishButton onFinish={onFinish} />
      </section>
    );
  }
  if (gate.name === 'no-password') {
    return (
      <NeedsOwnPassword
        resident={resident}
        onBack={
          gate.passwordKdf
            ? () => setGate({ name: 'password', passwordKdf: gate.passwordKdf! })
            : undefined
        }
        onFinish={onFinish}
      />
    );
  }
  return (
    <PasswordStep
      resident={resident}
      passwordKdf={gate.passwordKdf}
      onOpen={() => setGate({ name: 'open' })}
      onNoPassword={() => setGate({ name: 'no-password', passwordKdf: gate.passwordKdf })}
      onFinish={onFinish}
    />
  );
}

function FinishButton({ onFinish }: { onFinish: () => void }) {
  return (
    <div className="mt-4 flex flex-wrap gap-3 border-t pt-5">
      <Button size="lg" variant="secondary" onClick={onFinish}>
        Finish
      </Button>
    </div>
  );
}

/** What to say when opening the key failed. */
function unlockProblem(caught: unknown): string {
  // The wrap did not open with this password: said as a wrong password is.
  if (isSealingError(caught, 'wrap')) return STATION_SEALING_MESSAGES.wrongPassword;
  return describeError(caught, 'Please try again.');
}

/** The resident, handed the tablet, types their own password. */
function PasswordStep({
  resident,
  passwordKdf,
  onOpen,
  onNoPassword,
  onFinish,
}: {
  resident: TStationResident;
  passwordKdf: TKdfParams;
  onOpen: () => void;
  onNoPassword: () => void;
  onFinish: () => void;
}) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password || isBusy) return;
    setIsBusy(true);
    setError(null);
    try {
      await unlockForResident({ residentId: resident.id, password, passwordKdf });
      setPassword('');
      onOpen();
    } catch (caught) {
      setError(unlockProblem(caught));
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <section aria-labelledby="station-sealed" className="flex flex-col gap-5">
      <h1 id="station-sealed" className="text-3xl font-bold tracking-tight sm:text-4xl">
        Please hand the tablet to {resident.name}
      </h1>
      <div className="flex items-start gap-4 rounded-lg border-2 border-primary/40 bg-primary-soft p-5">
        <Lock className="mt-1 size-8 shrink-0 text-primary" aria-hidden="true" />
        <div className="flex flex-col gap-2 text-xl">
          <p>
            {resident.name}’s messages are sealed, so only the people they choose can watch them.
          </p>
          <p>To record here, {resident.name} types their own password.</p>
        </div>
      </div>
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <div className="flex flex-col gap-2">
          <Label htmlFor="station-resident-password" className="text-xl font-semibold">
            {resident.name}, please type your password
          </Label>
          <PasswordInput
            id="station-resident-password"
            // A shared tablet: no browser may offer to keep it.
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            className="min-h-14 text-xl"
            value={password}
            aria-invalid={error ? true : undefined}
            aria-describedby="station-resident-password-hint"
            onChange={(event) => setPassword(event.target.value)}
          />
          <p id="station-resident-password-hint" className="text-lg text-muted-foreground">
            Your password is not sent to Memento. This tablet forgets it, and what it unlocks, when
            you finish.
          </p>
        </div>
        {error && (
          <Alert variant="destructive" title="Not unlocked">
            <p>{error}</p>
          </Alert>
        )}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" size="lg" disabled={isBusy || !password}>
            {isBusy ? 'Checking…' : 'Unlock and record'}
          </Button>
          <Button type="button" size="lg" variant="outline" onClick={onNoPassword}>
            I do not know my password
          </Button>
        </div>
      </form>
      <FinishButton onFinish={onFinish} />
    </section>
  );
}

/** Without the resident's own password there is no way to record for them here. */
function NeedsOwnPassword({
  resident,
  onBack,
  onFinish,
}: {
  resident: TStationResident;
  onBack?: (() => void) | undefined;
  onFinish: () => void;
}) {
  return (
    <section aria-labelledby="station-sealed-needs" className="flex flex-col gap-5">
      <h1 id="station-sealed-needs" className="text-3xl font-bold tracking-tight sm:text-4xl">
        Sealed messages need {resident.name}’s own password
      </h1>
      <div className="flex flex-col gap-3 text-xl">
        <p>
          {resident.name}’s messages are sealed, so that only they and the people they choose can
          watch them. Nobody else can open them, not the care home and not Memento.
        </p>
        <p>Without their password, messages cannot be recorded for them on this tablet.</p>
      </div>
      {onBack && (
        <Button size="lg" variant="outline" className="self-start" onClick={onBack}>
          Type the password
        </Button>
      )}
      <FinishButton onFinish={onFinish} />
    </section>
  );
}
