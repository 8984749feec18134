import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import {
  DEFAULT_PROGRESS_SORT,
  PROGRESS_COLUMNS,
  PROGRESS_EXPORT_PATH,
  consentWords,
  familyWords,
  firstDirection,
  needsHelpWords,
  roomWords,
  sortProgress,
  sortWords,
  stationsWords,
  type TProgressSort,
  type TProgressSortKey,
} from '@shared/schemas/care-home-progress';
import type { TResidentProgress } from '@shared/schemas/care-homes';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { PageSpinner } from '@web/components/ui/spinner';
import {
  RESIDENTS_KEY,
  fetchProgressSpreadsheet,
  setResidentPaused,
  useResidents,
} from '@web/features/care-homes/care-homes-api';
import { describeError } from '@web/lib/api-client';
import { formatShortDate } from '@web/lib/date-format';
import { downloadFile } from '@web/lib/download-file';
import { ResidentStatusCell } from './resident-status-cell';
import { SectionHeading } from './section-heading';

/** Whether the stations offer the resident, with the one button that changes it. */
function StationsCell({ resident }: { resident: TResidentProgress }) {
  const queryClient = useQueryClient();
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = `${resident.firstName} ${resident.lastName}`;

  async function toggle() {
    setIsBusy(true);
    setError(null);
    try {
      await setResidentPaused(resident.id, !resident.paused);
      await queryClient.invalidateQueries({ queryKey: RESIDENTS_KEY });
    } catch (caught) {
      setError(describeError(caught, 'Please try again.'));
    } finally {
      setIsBusy(false);
    }
  }

  // A resident who left or died is never offered: nothing to pause.
  if (resident.status !== 'active') return <span>{stationsWords(resident)}</span>;
  return (
    <div className="flex flex-col items-start gap-2">
      <span>{stationsWords(resident)}</span>
      <Button
        variant="outline"
        disabled={isBusy}
        aria-label={
          resident.paused ? `Turn Memento back on for ${name}` : `Pause Memento for ${name}`
        }
        onClick={() => void toggle()}
      >
        {resident.paused ? 'Turn back on' : 'Pause'}
      </Button>
      {error && (
        <p role="alert" className="text-base text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The table as a spreadsheet file. A link, since it fetches a file; the click asks with this
 * device's header, which a plain link cannot send, and hands the answer to the browser's download.
 */
function SpreadsheetLink() {
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setIsBusy(true);
    setError(null);
    try {
      const { blob, fileName } = await fetchProgressSpreadsheet();
      downloadFile(blob, fileName);
    } catch (caught) {
      setError(describeError(caught, 'The spreadsheet could not be made. Please try again.'));
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <div className="mb-4 flex flex-col items-start gap-2">
      <Button asChild variant="outline">
        <a
          href={PROGRESS_EXPORT_PATH}
          download
          aria-disabled={isBusy || undefined}
          onClick={(event) => {
            event.preventDefault();
            if (!isBusy) void download();
          }}
        >
          {isBusy ? 'Making the spreadsheet…' : 'Download as a spreadsheet (CSV)'}
        </a>
      </Button>
      {/* The file is the server's, in the table's own order: the screen's sorting stays here. */}
      <p className="text-base text-muted-foreground">The file lists residents by last name.</p>
      {error && (
        <p role="alert" className="text-base text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/** A column's heading: a button that sorts by it, and again the other way. */
function SortHeading({
  column,
  sort,
  onSort,
}: {
  column: (typeof PROGRESS_COLUMNS)[number];
  sort: TProgressSort;
  onSort: (key: TProgressSortKey) => void;
}) {
  const isSorted = sort.key === column.key;
  const Arrow = !isSorted ? ArrowUpDown : sort.direction === 'ascending' ? ArrowUp : ArrowDown;
  return (
    <th scope="col" aria-sort={isSorted ? sort.direction : undefined} className="p-1 align-bottom">
      <button
        type="button"
        onClick={() => onSort(column.key)}
        className="inline-flex min-h-11 min-w-11 cursor-pointer items-center gap-2 rounded-lg px-2 py-2 text-left text-base font-semibold whitespace-nowrap hover:bg-muted"
      >
        {column.heading}
        <Arrow
          aria-hidden="true"
          className={isSorted ? 'size-5 shrink-0' : 'size-5 shrink-0 text-muted-foreground'}
        />
      </button>
    </th>
  );
}

/** One row a resident: counts and dates only, never a message's title or a way to watch it. */
export function ProgressTable() {
  const { data: residents, isLoading } = useResidents(true);
  const [sort, setSort] = useState<TProgressSort>(DEFAULT_PROGRESS_SORT);
  // Client-side: the table is one home's residents, all loaded already.
  const rows = useMemo(() => sortProgress(residents ?? [], sort), [residents, sort]);

  function sortBy(key: TProgressSortKey) {
    setSort((current) =>
      current.key === key
        ? { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' }
        : { key, direction: firstDirection(key) },
    );
  }

  return (
    <Card asChild>
      <section aria-labelledby="progress-heading">
        <SectionHeading id="progress-heading" title="How residents are getting on">
          Numbers and dates only. Messages belong to each resident and are never shown here.
        </SectionHeading>
        <CardContent>
          {isLoading && <PageSpinner label="Loading residents" />}
          {residents && residents.length === 0 && (
            <p className="text-base text-muted-foreground">No residents yet.</p>
          )}
          {residents && residents.length > 0 && <SpreadsheetLink />}
          {residents && residents.length > 0 && (
            <p className="mb-2 text-base">
              <span aria-live="polite" aria-atomic="true" className="font-semibold">
                {sortWords(sort)}
              </span>{' '}
              Press a column&rsquo;s heading to sort by it, and again to reverse.
            </p>
          )}
          {residents && residents.length > 0 && (
            <div
              className="overflow-x-auto"
              tabIndex={0}
              role="region"
              aria-label="Residents' progress"
            >
              <table className="w-full border-collapse text-left text-base">
                <caption className="sr-only">Each resident&rsquo;s progress</caption>
                <thead>
                  <tr className="border-b-2 border-border">
                    {PROGRESS_COLUMNS.map((column) => (
                      <SortHeading key={column.key} column={column} sort={sort} onSort={sortBy} />
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((resident) => (
                    <tr key={resident.id} className="border-b border-border align-top">
                      {/* Wide enough for a first and last name on one line. */}
                      <th scope="row" className="min-w-40 p-3 text-left font-semibold">
                        {resident.firstName} {resident.lastName}
                        <span className="block font-normal text-muted-foreground">
                          {consentWords(resident)}
                        </span>
                      </th>
                      <td className="p-3">{roomWords(resident)}</td>
                      <td className="p-3">
                        {resident.nextOfKin ? (
                          <>
                            {resident.nextOfKin.name}
                            <span className="block whitespace-nowrap text-muted-foreground">
                              {resident.nextOfKin.maskedEmail}
                            </span>
                          </>
                        ) : (
                          'Missing'
                        )}
                      </td>
                      <td className="p-3">{familyWords(resident)}</td>
                      <td className="p-3">{resident.messages.recorded}</td>
                      <td className="p-3">{resident.messages.sent}</td>
                      <td className="p-3 whitespace-nowrap">
                        {resident.lastSessionAt
                          ? formatShortDate(new Date(resident.lastSessionAt))
                          : 'Not yet'}
                      </td>
                      <td className="p-3">{needsHelpWords(resident)}</td>
                      <td className="p-3">
                        <StationsCell resident={resident} />
                      </td>
                      <td className="p-3">
                        <ResidentStatusCell resident={resident} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </CardContent>
      </section>
    </Card>
  );
}
