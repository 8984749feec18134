import { useQueryClient } from '@tanstack/react-query';
import { SUPPORT_CATEGORY_LABELS, type TAdminSupportRequest } from '@shared/schemas/support';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { PageSpinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import {
  ADMIN_SUPPORT_KEY,
  markSupportAnswered,
  useAdminSupport,
} from '@web/features/support/support-api';
import { describeError } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { formatDateTime } from '@web/features/admin/admin-format';

const badgeClass =
  'inline-flex items-center rounded-full border px-2.5 py-0.5 text-base font-semibold whitespace-nowrap';

function diagnosticsWords(request: TAdminSupportRequest): string {
  const d = request.diagnostics;
  if (!d) return 'No diagnostics.';
  return [
    d.browser && `Browser: ${d.browser}`,
    d.appVersion && `App ${d.appVersion}`,
    d.deviceCount !== undefined && `${d.deviceCount} devices`,
    d.storageUsedBytes !== undefined && `${Math.round(d.storageUsedBytes / 1_048_576)} MB stored`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Care homes' requests for help: open first, Professional first, then the earliest due. */
export function SupportTab() {
  const queryClient = useQueryClient();
  const { data, isLoading, error } = useAdminSupport();

  async function onAnswered(request: TAdminSupportRequest) {
    try {
      await markSupportAnswered(request.id);
      toast({ title: `Marked ${request.homeName}’s request answered` });
      await queryClient.invalidateQueries({ queryKey: ADMIN_SUPPORT_KEY });
    } catch (caught) {
      toast({ title: describeError(caught, 'Please try again.'), variant: 'destructive' });
    }
  }

  if (isLoading) return <PageSpinner label="Loading support requests" />;
  if (error)
    return (
      <Alert variant="destructive" title="Support requests could not be loaded">
        <p>{describeError(error, 'Please try again.')}</p>
      </Alert>
    );
  if (!data || data.length === 0) return <p className="text-lg">No support requests yet.</p>;
  return (
    <ul className="flex flex-col gap-4" aria-label="Support requests">
      {data.map((request) => (
        <li key={request.id} className="flex flex-col gap-2 rounded-lg border-2 border-border p-4">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-lg font-bold">
              {request.homeName}: {SUPPORT_CATEGORY_LABELS[request.category]}
            </h3>
            {request.isPriority && (
              <span className={cn(badgeClass, 'border-primary/40 bg-primary-soft text-primary')}>
                Professional
              </span>
            )}
            {request.urgency === 'urgent' && (
              <span
                className={cn(
                  badgeClass,
                  'border-destructive/40 bg-destructive-soft text-foreground',
                )}
              >
                Urgent
              </span>
            )}
          </div>
          <p className="text-base">
            From {request.requesterName} ({request.requesterEmail}) on{' '}
            {formatDateTime(request.createdAt)}.{' '}
            {request.status === 'answered'
              ? `Answered ${formatDateTime(request.answeredAt!)}.`
              : `Due by ${formatDateTime(request.dueAt)}.`}
          </p>
          <p className="text-base whitespace-pre-line">{request.description}</p>
          <p className="text-base text-muted-foreground">{diagnosticsWords(request)}</p>
          {request.status === 'received' && (
            <Button
              variant="outline"
              className="self-start"
              onClick={() => void onAnswered(request)}
              aria-label={`Mark ${request.homeName}’s request answered`}
            >
              Mark answered
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}
