import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  CARE_HOME_MESSAGES,
  IMPORT_COLUMNS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  type TImportResult,
  type TImportRow,
} from '@shared/schemas/care-homes';
import { FormErrorAlert } from '@web/components/form-parts';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { importResidents, RESIDENTS_KEY } from '@web/features/care-homes/care-homes-api';
import { describeError } from '@web/lib/api-client';
import { SectionHeading } from './section-heading';

const STATE_WORDS: Record<TImportRow['state'], string> = {
  ready: 'Ready to import',
  imported: 'Imported',
  exists: 'Already in your home',
  invalid: 'Needs correcting',
};

/** Residents and their next of kin from a CSV file: every row checked first, then imported. */
export function ResidentsImport() {
  const queryClient = useQueryClient();
  const [csv, setCsv] = useState<string | null>(null);
  const [result, setResult] = useState<TImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  async function onFile(file: File | undefined) {
    setResult(null);
    setError(null);
    setCsv(null);
    if (!file) return;
    if (file.size > IMPORT_MAX_BYTES) {
      setError(CARE_HOME_MESSAGES.importTooLarge);
      return;
    }
    const text = await file.text();
    setCsv(text);
    await run(text, true);
  }

  async function run(text: string, dryRun: boolean) {
    setIsBusy(true);
    setError(null);
    try {
      setResult(await importResidents(text, dryRun));
      if (!dryRun) await queryClient.invalidateQueries({ queryKey: RESIDENTS_KEY });
    } catch (caught) {
      setResult(null);
      setError(describeError(caught, 'Please try again.'));
    } finally {
      setIsBusy(false);
    }
  }

  const ready = result?.dryRun ? result.counts.ready : 0;
  return (
    <Card asChild>
      <section aria-labelledby="import-heading">
        <SectionHeading id="import-heading" title="Add residents from a file">
          A CSV file with one resident a line (at most {IMPORT_MAX_ROWS}). The first line names the
          columns: {IMPORT_COLUMNS.join(', ')}. Consent basis is resident, attorney or
          best_interests. Every line is checked before anything is added, and a file imported twice
          adds nobody twice.
        </SectionHeading>
        <CardContent className="flex flex-col gap-5">
          <FormField
            label="Residents file (CSV)"
            type="file"
            accept=".csv,text/csv"
            disabled={isBusy}
            onChange={(event) => void onFile(event.target.files?.[0])}
          />
          {error && <FormErrorAlert title="This file cannot be imported" message={error} />}
          {result && (
            <div className="flex flex-col gap-4" aria-live="polite">
              <Alert
                variant={result.dryRun ? 'info' : 'success'}
                title={result.dryRun ? 'What this file would do' : 'Import finished'}
              >
                <p>
                  {result.dryRun
                    ? `${result.counts.ready} ready to import, ${result.counts.exists} already in your home, ${result.counts.invalid} to correct.`
                    : `${result.counts.imported} imported, ${result.counts.exists} already in your home, ${result.counts.invalid} to correct.`}
                </p>
              </Alert>
              <ImportRows rows={result.rows} />
              {result.dryRun && csv && ready > 0 && (
                <Button
                  size="lg"
                  className="self-start"
                  disabled={isBusy}
                  onClick={() => void run(csv, false)}
                >
                  {isBusy ? 'Importing…' : `Import ${ready} resident${ready === 1 ? '' : 's'}`}
                </Button>
              )}
            </div>
          )}
        </CardContent>
      </section>
    </Card>
  );
}

function ImportRows({ rows }: { rows: TImportRow[] }) {
  return (
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Lines of the file">
      <table className="w-full border-collapse text-left text-base">
        <caption className="sr-only">Each line of the file and what happens to it</caption>
        <thead>
          <tr className="border-b-2 border-border">
            <th scope="col" className="p-3">
              Line
            </th>
            <th scope="col" className="p-3">
              Resident
            </th>
            <th scope="col" className="p-3">
              Room
            </th>
            <th scope="col" className="p-3">
              Result
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.line} className="border-b border-border align-top">
              <td className="p-3">{row.line}</td>
              <td className="p-3">{row.name || '—'}</td>
              <td className="p-3">{row.room || '—'}</td>
              <td className="p-3">
                <span className={row.state === 'invalid' ? 'font-semibold text-destructive' : ''}>
                  {STATE_WORDS[row.state]}
                </span>
                {row.errors.length > 0 && (
                  <ul className="mt-1 list-disc pl-5">
                    {row.errors.map((message) => (
                      <li key={message}>{message}</li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
