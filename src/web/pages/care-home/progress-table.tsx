import { CONSENT_LABELS } from '@shared/schemas/care-homes';
import { Card, CardContent } from '@web/components/ui/card';
import { PageSpinner } from '@web/components/ui/spinner';
import { useResidents } from '@web/features/care-homes/care-homes-api';
import { formatShortDate } from '@web/lib/date-format';
import { SectionHeading } from './section-heading';

/** One row a resident: counts and dates only, never a message's title or a way to watch it. */
export function ProgressTable() {
  const { data: residents, isLoading } = useResidents(true);
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
                    {[
                      'Resident',
                      'Room',
                      'Next of kin',
                      'Family joined',
                      'Messages recorded',
                      'Messages sent',
                      'Last session',
                      'Needs help',
                    ].map((heading) => (
                      <th key={heading} scope="col" className="p-3 whitespace-nowrap">
                        {heading}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {residents.map((resident) => (
                    <tr key={resident.id} className="border-b border-border align-top">
                      <th scope="row" className="p-3 text-left font-semibold">
                        {resident.firstName} {resident.lastName}
                        <span className="block font-normal text-muted-foreground">
                          {resident.consentBasis
                            ? CONSENT_LABELS[resident.consentBasis]
                            : 'No consent recorded'}
                        </span>
                      </th>
                      <td className="p-3">{resident.room || '—'}</td>
                      <td className="p-3">
                        {resident.nextOfKin ? (
                          <>
                            {resident.nextOfKin.name}
                            <span className="block break-all text-muted-foreground">
                              {resident.nextOfKin.maskedEmail}
                            </span>
                          </>
                        ) : (
                          'Missing'
                        )}
                      </td>
                      <td className="p-3">
                        {resident.family.joined} of {resident.family.total}
                      </td>
                      <td className="p-3">{resident.messages.recorded}</td>
                      <td className="p-3">{resident.messages.sent}</td>
                      <td className="p-3 whitespace-nowrap">
                        {resident.lastSessionAt
                          ? formatShortDate(new Date(resident.lastSessionAt))
                          : 'Not yet'}
                      </td>
                      <td className="p-3">
                        {resident.needsHelp.length > 0 ? resident.needsHelp.join('; ') : 'No'}
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
