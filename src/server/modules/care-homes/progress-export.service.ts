import { PROGRESS_CSV_HEADINGS, progressCsvRow } from '../../../shared/schemas/care-home-progress';
import type { AppDeps } from '../../deps';
import type { Actor } from '../access/actor';
import { recordAccountEvent, type RequestContext } from '../audit/audit.service';
import { requireOwnHome } from './care-homes.service';
import { formatCsv } from './csv';
import { progressOfHome } from './residents.service';

type Deps = Pick<AppDeps, 'clock' | 'db'>;

const ukDayParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** A day as '2026-12-03' in UK time: every spreadsheet reads it as a date and sorts it. */
function ukDay(date: Date): string {
  const parts = Object.fromEntries(ukDayParts.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/**
 * GET the progress table as a spreadsheet: the same rows the page shows, in its words, built by
 * the same read; names, counts, dates and masked emails only. Recorded on the manager's log.
 */
export async function exportProgress(
  deps: Deps,
  context: RequestContext,
  actor: Actor,
): Promise<{ fileName: string; csv: string }> {
  const home = await requireOwnHome(deps, actor);
  const residents = await progressOfHome(deps, home);
  const csv = formatCsv([
    PROGRESS_CSV_HEADINGS,
    ...residents.map((resident) => progressCsvRow(resident, ukDay)),
  ]);
  await recordAccountEvent(deps.db, context, actor.user, {
    eventType: 'care_home_progress_exported',
    details: {
      message: `Downloaded the progress table of ${home.name} as a spreadsheet (${residents.length} resident${residents.length === 1 ? '' : 's'})`,
    },
  });
  return { fileName: `${home.slug}-progress-${ukDay(deps.clock.now())}.csv`, csv };
}
