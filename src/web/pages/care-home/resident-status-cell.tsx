import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { statusWords } from '@shared/schemas/care-home-progress';
import type { TResidentProgress, TResidentStatus } from '@shared/schemas/care-homes';
import { Button } from '@web/components/ui/button';
import { RESIDENTS_KEY, setResidentStatus } from '@web/features/care-homes/care-homes-api';
import { describeError } from '@web/lib/api-client';
import { formatShortDate } from '@web/lib/date-format';

/**
 * Whether the resident lives here, left or died, with the buttons that record a change. A death
 * is asked about once more in place, with what it will do, since it cannot be undone here.
 */
export function ResidentStatusCell({ resident }: { resident: TResidentProgress }) {
  const queryClient = useQueryClient();
  const [isBusy, setIsBusy] = useState(false);
  const [isConfirmingDeath, setIsConfirmingDeath] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = `${resident.firstName} ${resident.lastName}`;

  async function record(status: TResidentStatus) {
    setIsBusy(true);
    setError(null);
    try {
      await setResidentStatus(resident.id, status);
      setIsConfirmingDeath(false);
      await queryClient.invalidateQueries({ queryKey: RESIDENTS_KEY });
    } catch (caught) {
      setError(describeError(caught, 'Please try again.'));
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <div className="flex min-w-56 flex-col items-start gap-2 [&_button]:whitespace-nowrap">
      <span>{statusWords(resident, formatShortDate)}</span>
      {resident.status === 'active' && !isConfirmingDeath && (
        <>
          <Button
            variant="outline"
            disabled={isBusy}
            aria-label={`${name} has left`}
            onClick={() => void record('left')}
          >
            Has left
          </Button>
          <Button
            variant="outline"
            disabled={isBusy}
            aria-label={`Record ${name}’s death`}
            onClick={() => setIsConfirmingDeath(true)}
          >
            Record a death
          </Button>
        </>
      )}
      {resident.status === 'left' && (
        <Button
          variant="outline"
          disabled={isBusy}
          aria-label={`${name} is back`}
          onClick={() => void record('active')}
        >
          Is back
        </Button>
      )}
      {isConfirmingDeath && (
        <div
          role="group"
          aria-label={`Record ${name}’s death`}
          className="flex w-64 flex-col gap-2"
        >
          <p className="text-base">
            We will tell {resident.nextOfKin?.name ?? 'their next of kin'} that they may ask for{' '}
            {resident.firstName}’s legacy to be released. Nothing is released by this, and it cannot
            be undone here.
          </p>
          <Button disabled={isBusy} onClick={() => void record('died')}>
            Yes, record it
          </Button>
          <Button variant="outline" disabled={isBusy} onClick={() => setIsConfirmingDeath(false)}>
            Cancel
          </Button>
        </div>
      )}
      {error && (
        <p role="alert" className="text-base text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
