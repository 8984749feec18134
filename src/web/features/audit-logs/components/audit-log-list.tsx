import { CircleCheck, CircleX } from 'lucide-react';
import type { TAuditLogEntry } from '@shared/schemas/audit';
import { cn } from '@web/lib/utils';
import { describeEvent, formatEventTime } from '../audit-events';

const UNKNOWN_USER = 'Unknown';
const NO_DETAILS = '-';

/** Success or failure in words and an icon, never by colour alone. */
function StatusBadge({ isSuccessful }: { isSuccessful: boolean }) {
  const Icon = isSuccessful ? CircleCheck : CircleX;
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full border px-3 py-0.5 text-base font-semibold whitespace-nowrap',
        isSuccessful
          ? 'border-success/40 bg-success-soft text-success'
          : 'border-destructive/40 bg-destructive-soft text-destructive',
      )}
    >
      <Icon className="size-4" aria-hidden="true" />
      {isSuccessful ? 'Success' : 'Failed'}
    </span>
  );
}

/** Date, then time of day: on two lines in the table, on one in a card. */
function EventTime({ timestamp, isStacked = false }: { timestamp: string; isStacked?: boolean }) {
  const { date, time } = formatEventTime(timestamp);
  return (
    <time dateTime={timestamp} className={isStacked ? 'flex flex-col' : undefined}>
      <span>{date}</span>
      {isStacked ? ' ' : ', '}
      <span className={isStacked ? 'text-muted-foreground' : undefined}>{time}</span>
    </time>
  );
}

/** Columns: Time, Event, User, Status, Details. A table on wide screens. */
export function AuditLogTable({ entries }: { entries: TAuditLogEntry[] }) {
  return (
    <div className="hidden overflow-x-auto rounded-xl border border-border bg-card shadow-soft md:block">
      <table className="w-full table-fixed border-collapse text-left text-base">
        <caption className="sr-only">Your security events, newest first</caption>
        <colgroup>
          <col className="w-[15%]" />
          <col className="w-[18%]" />
          <col className="w-[16%]" />
          <col className="w-[13%]" />
          <col />
        </colgroup>
        <thead className="bg-muted">
          <tr>
            {['Time', 'Event', 'User', 'Status', 'Details'].map((column) => (
              <th key={column} scope="col" className="px-4 py-3 font-semibold">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id} className="border-t border-border align-top">
              <td className="px-4 py-3">
                <EventTime timestamp={entry.timestamp} isStacked />
              </td>
              <td className="px-4 py-3 font-semibold">{describeEvent(entry.eventType)}</td>
              <td className="px-4 py-3 break-words" title={whoDidIt(entry)}>
                {whoDidIt(entry)}
              </td>
              <td className="px-4 py-3">
                <StatusBadge isSuccessful={entry.successful} />
              </td>
              <td className="px-4 py-3 break-words">{entry.details || NO_DETAILS}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The person who did it: someone else when they acted on the account, else the user. */
function whoDidIt(entry: TAuditLogEntry): string {
  return entry.actor ?? entry.username ?? UNKNOWN_USER;
}

/** The same events as cards, for phones, where there is no pointer to hover: details in full. */
export function AuditLogCards({ entries }: { entries: TAuditLogEntry[] }) {
  return (
    <ul aria-label="Your security events, newest first" className="flex flex-col gap-3 md:hidden">
      {entries.map((entry) => (
        <li
          key={entry.id}
          className="flex flex-col gap-2 rounded-xl border border-border bg-card p-4 shadow-soft"
        >
          <div className="flex flex-wrap items-start justify-between gap-2">
            <p className="text-lg font-bold">{describeEvent(entry.eventType)}</p>
            <StatusBadge isSuccessful={entry.successful} />
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-base">
            <dt className="text-muted-foreground">Time</dt>
            <dd>
              <EventTime timestamp={entry.timestamp} />
            </dd>
            <dt className="text-muted-foreground">User</dt>
            <dd className="break-words">{whoDidIt(entry)}</dd>
            <dt className="text-muted-foreground">Details</dt>
            <dd className="break-words">{entry.details || NO_DETAILS}</dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}
