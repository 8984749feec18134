import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { careHomeAccent } from '@web/lib/care-home-accent';
import type { TStationAnswer, TStationResident } from '@shared/schemas/stations';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { PageSpinner } from '@web/components/ui/spinner';
import {
  finishAtStation,
  getStation,
  listStationResidents,
  pauseAtStation,
  pickStationResident,
  signInAtStation,
} from '@web/features/stations/stations-api';
import { describeError } from '@web/lib/api-client';
import { usePageTitle } from '@web/lib/use-page-title';
import { RecordForResident } from './record-for-resident';
import { SealedResidentGate } from './sealed-resident-gate';

const PAGE_TITLE = 'Recording station';
/** Nobody has touched the screen for this long: the station finishes on its own. */
const IDLE_FINISH_MS = 10 * 60_000;

type TStep =
  | { name: 'loading' }
  | { name: 'not-station'; message: string }
  | { name: 'staff'; station: TStationAnswer }
  | { name: 'residents'; station: TStationAnswer; residents: TStationResident[] }
  | { name: 'record'; station: TStationAnswer; resident: TStationResident };

/**
 * A care home's shared tablet: a carer signs in with their PIN, picks a resident, and the
 * resident records, reviews and saves. "Finish" (or ten quiet minutes) leaves nothing behind.
 */
export default function StationPage() {
  usePageTitle(PAGE_TITLE);
  const [step, setStep] = useState<TStep>({ name: 'loading' });
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    void stationStep().then(setStep);
  }, []);

  const finish = useCallback(async (message: string) => {
    await finishAtStation();
    setNotice(message);
    setStep(await stationStep());
  }, []);

  // Ten minutes without a touch or a key: finish on the resident's behalf.
  useEffect(() => {
    if (step.name !== 'residents' && step.name !== 'record') return;
    let timer = window.setTimeout(() => void finish(IDLE_MESSAGE), IDLE_FINISH_MS);
    const reset = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => void finish(IDLE_MESSAGE), IDLE_FINISH_MS);
    };
    window.addEventListener('pointerdown', reset);
    window.addEventListener('keydown', reset);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('pointerdown', reset);
      window.removeEventListener('keydown', reset);
    };
  }, [step.name, finish]);

  const home = step.name === 'loading' || step.name === 'not-station' ? null : step.station.home;

  return (
    <div
      className="mx-auto flex w-full max-w-3xl flex-col gap-6 text-lg"
      style={careHomeAccent(home?.accentHex)}
    >
      {home && (
        // The home's own look, and always who holds the messages.
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-border pb-4">
          {home.hasLogo && (
            <img
              src={`/api/care-homes/${home.slug}/logo`}
              alt={`${home.name} logo`}
              className="h-12 w-auto max-w-48 object-contain"
            />
          )}
          <div>
            <p className="text-xl font-semibold text-primary">{home.name}</p>
            <p className="text-lg text-muted-foreground">Powered by Memento</p>
          </div>
        </div>
      )}
      {step.name === 'loading' && <PageSpinner label="Getting the station ready" />}
      {step.name === 'not-station' && (
        <>
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{PAGE_TITLE}</h1>
          <Alert variant="info" title="This tablet is not a recording station">
            <p>{step.message}</p>
            <p>A care home&rsquo;s manager can make it one from the care home page.</p>
          </Alert>
        </>
      )}
      {notice && step.name === 'staff' && (
        <Alert variant="success" title="All finished">
          <p>{notice}</p>
        </Alert>
      )}
      {step.name === 'staff' && (
        <StaffSignIn
          station={step.station}
          onSignedIn={async () => {
            setNotice(null);
            setStep({
              name: 'residents',
              station: step.station,
              residents: await listStationResidents(),
            });
          }}
        />
      )}
      {step.name === 'residents' && (
        <ResidentPicker
          residents={step.residents}
          onPick={async (id) => {
            const resident = await pickStationResident(id);
            setStep({ name: 'record', station: step.station, resident });
          }}
          onFinish={() => void finish(FINISHED_MESSAGE)}
        />
      )}
      {step.name === 'record' && (
        <SealedResidentGate resident={step.resident} onFinish={() => void finish(FINISHED_MESSAGE)}>
          {(isSealed) => (
            <RecordForResident
              resident={step.resident}
              homeName={step.station.home.name}
              isSealed={isSealed}
              onFinish={() => void finish(FINISHED_MESSAGE)}
              onPause={async () => {
                await pauseAtStation();
                await finish(
                  'Memento is paused for this person. Their manager or carer can turn it back on.',
                );
              }}
            />
          )}
        </SealedResidentGate>
      )}
    </div>
  );
}

/** Where the station starts: its staff list, with any session left over from a reload ended. */
async function stationStep(): Promise<TStep> {
  try {
    const station = await getStation();
    if (!station.session) return { name: 'staff', station };
    await finishAtStation();
    return { name: 'staff', station: { ...station, session: null } };
  } catch (caught) {
    return { name: 'not-station', message: describeError(caught, 'Please try again.') };
  }
}

const FINISHED_MESSAGE = 'The station is clear. Nothing of anyone’s messages is kept on it.';
const IDLE_MESSAGE =
  'The station finished on its own after ten quiet minutes. Nothing of anyone’s messages is kept on it.';

function StaffSignIn({
  station,
  onSignedIn,
}: {
  station: TStationAnswer;
  onSignedIn: () => Promise<void>;
}) {
  const [staffId, setStaffId] = useState<number | null>(null);
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const chosen = station.staff.find((member) => member.id === staffId);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!staffId) return;
    setIsBusy(true);
    setError(null);
    try {
      await signInAtStation(staffId, pin);
      setPin('');
      await onSignedIn();
    } catch (caught) {
      setError(describeError(caught, 'Please try again.'));
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <section aria-labelledby="station-staff" className="flex flex-col gap-4">
      <h1 id="station-staff" className="text-3xl font-bold tracking-tight sm:text-4xl">
        Who is helping today?
      </h1>
      <p className="text-muted-foreground">{station.station.name}</p>
      {station.staff.length === 0 && (
        <Alert variant="info" title="No one can sign in here yet">
          <p>
            Each carer sets their own PIN on the care home page, signed in with their own account.
          </p>
        </Alert>
      )}
      {!chosen ? (
        <ul className="flex flex-col gap-3">
          {station.staff.map((member) => (
            <li key={member.id}>
              <Button
                size="lg"
                variant="outline"
                className="w-full"
                onClick={() => setStaffId(member.id)}
              >
                {member.name}
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
          <div className="flex flex-col gap-2">
            <Label htmlFor="station-pin" className="text-lg">
              {chosen.name}, please type your PIN
            </Label>
            <Input
              id="station-pin"
              type="password"
              inputMode="numeric"
              autoComplete="off"
              maxLength={6}
              className="min-h-14 text-2xl tracking-widest"
              value={pin}
              onChange={(event) => setPin(event.target.value.replace(/\D/g, ''))}
            />
          </div>
          {error && (
            <Alert variant="destructive" title="Not signed in">
              <p>{error}</p>
            </Alert>
          )}
          <div className="flex flex-wrap gap-3">
            <Button type="submit" size="lg" disabled={isBusy || pin.length < 4}>
              {isBusy ? 'Signing in…' : 'Sign in'}
            </Button>
            <Button type="button" size="lg" variant="ghost" onClick={() => setStaffId(null)}>
              Not me
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}

function ResidentPicker({
  residents,
  onPick,
  onFinish,
}: {
  residents: TStationResident[];
  onPick: (id: number) => Promise<void>;
  onFinish: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  return (
    <section aria-labelledby="station-residents" className="flex flex-col gap-4">
      <h1 id="station-residents" className="text-3xl font-bold tracking-tight sm:text-4xl">
        Who is recording?
      </h1>
      {residents.length === 0 && (
        <p>
          No one is ready to record here yet. Each resident needs their consent written down first.
        </p>
      )}
      {error && (
        <Alert variant="destructive" title="Please choose again">
          <p>{error}</p>
        </Alert>
      )}
      <ul className="flex flex-col gap-3">
        {residents.map((resident) => (
          <li key={resident.id}>
            <Button
              size="lg"
              variant="outline"
              className="w-full"
              onClick={() =>
                onPick(resident.id).catch((caught: unknown) =>
                  setError(describeError(caught, 'Please try again.')),
                )
              }
            >
              {resident.name}
            </Button>
          </li>
        ))}
      </ul>
      <Button size="lg" variant="secondary" className="self-start" onClick={onFinish}>
        Finish
      </Button>
    </section>
  );
}
