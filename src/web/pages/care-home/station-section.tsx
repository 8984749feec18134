import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { FormErrorAlert } from '@web/components/form-parts';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { makeStation, setStationPin } from '@web/features/stations/stations-api';
import { describeError } from '@web/lib/api-client';
import { SectionHeading } from './section-heading';

/**
 * The manager, on the home's tablet: it becomes the recording station. Their own sign-in on it
 * ends, since no account is kept on a station.
 */
export function StationSection() {
  const navigate = useNavigate();
  const [name, setName] = useState('Lounge tablet');
  const [error, setError] = useState<string | null>(null);
  const [isConfirming, setIsConfirming] = useState(false);
  const [isBusy, setIsBusy] = useState(false);

  async function onMake() {
    setIsBusy(true);
    setError(null);
    try {
      await makeStation(name);
      // A full load: the signed-out tablet starts afresh as the station.
      void navigate('/station');
      window.location.reload();
    } catch (caught) {
      setError(describeError(caught, 'Please try again.'));
      setIsBusy(false);
    }
  }

  return (
    <Card asChild>
      <section aria-labelledby="station-heading">
        <SectionHeading id="station-heading" title="Recording stations">
          A shared tablet where carers sign in with their PIN and help a resident record. It counts
          toward your 25 devices. Do this on the tablet itself.
        </SectionHeading>
        <CardContent className="flex flex-col gap-4">
          {error && (
            <FormErrorAlert title="The tablet could not become a station" message={error} />
          )}
          <FormField
            label="The tablet's name"
            hint="Staff see it when they sign in, such as “Lounge tablet”."
            value={name}
            maxLength={60}
            onChange={(event) => setName(event.target.value)}
          />
          {isConfirming ? (
            <Alert variant="warm" title="Make this tablet a recording station?">
              <p>You will be signed out here, and this tablet will no longer be one of yours.</p>
              <div className="flex flex-wrap gap-3">
                <Button disabled={isBusy || !name.trim()} onClick={() => void onMake()}>
                  {isBusy ? 'Making it a station…' : 'Yes, make it a station'}
                </Button>
                <Button variant="ghost" onClick={() => setIsConfirming(false)}>
                  Not now
                </Button>
              </div>
            </Alert>
          ) : (
            <Button className="self-start" onClick={() => setIsConfirming(true)}>
              Make this tablet a recording station
            </Button>
          )}
        </CardContent>
      </section>
    </Card>
  );
}

/** A member of staff chooses their own short PIN for the home's stations. */
export function StationPinSection() {
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSaved, setIsSaved] = useState(false);
  const [isBusy, setIsBusy] = useState(false);

  async function onSave(event: FormEvent) {
    event.preventDefault();
    setIsBusy(true);
    setError(null);
    try {
      await setStationPin(pin);
      setPin('');
      setIsSaved(true);
    } catch (caught) {
      setError(describeError(caught, 'Please try again.'));
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <Card asChild>
      <section aria-labelledby="pin-heading">
        <SectionHeading id="pin-heading" title="Your station PIN">
          For staff: choose 4 to 6 numbers to sign in on the home&rsquo;s recording stations. Keep
          it to yourself.
        </SectionHeading>
        <CardContent>
          <form className="flex flex-col gap-4" onSubmit={(event) => void onSave(event)} noValidate>
            {error && <FormErrorAlert title="Your PIN was not saved" message={error} />}
            {isSaved && (
              <Alert variant="success" title="Your PIN is saved">
                <p>You can now sign in on the home&rsquo;s recording stations.</p>
              </Alert>
            )}
            <FormField
              label="Your PIN (4 to 6 numbers)"
              type="password"
              inputMode="numeric"
              autoComplete="new-password"
              maxLength={6}
              value={pin}
              onChange={(event) => setPin(event.target.value.replace(/\D/g, ''))}
            />
            <Button type="submit" className="self-start" disabled={isBusy || pin.length < 4}>
              {isBusy ? 'Saving…' : 'Save my PIN'}
            </Button>
          </form>
        </CardContent>
      </section>
    </Card>
  );
}
