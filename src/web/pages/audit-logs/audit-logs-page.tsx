import { CircleAlert } from 'lucide-react';
import { BackHomeLink } from '@web/components/back-home-link';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { PageSpinner } from '@web/components/ui/spinner';
import { useAuth } from '@web/lib/auth-provider';
import { useAuditLogs } from '@web/features/audit-logs/audit-logs-api';
import { AuditLogCards, AuditLogTable } from '@web/features/audit-logs/components/audit-log-list';
import { usePageTitle } from '@web/lib/use-page-title';

const FETCH_FAILED = 'Failed to fetch audit logs';

function AuditLogs({ userId }: { userId: number }) {
  const logs = useAuditLogs(userId);

  if (logs.isPending) return <PageSpinner label="Loading your security log" />;
  if (logs.isError && !logs.data) {
    return (
      <Alert variant="destructive" title={FETCH_FAILED} icon={<CircleAlert aria-hidden="true" />}>
        <p>{logs.error.message}</p>
        <div>
          <Button variant="outline" onClick={() => void logs.refetch()}>
            Try Again
          </Button>
        </div>
      </Alert>
    );
  }

  const entries = logs.data ?? [];
  return (
    <>
      {logs.isError && (
        <Alert variant="destructive" title={FETCH_FAILED} icon={<CircleAlert aria-hidden="true" />}>
          <p>The list below may be out of date. We will keep trying.</p>
        </Alert>
      )}
      {entries.length === 0 ? (
        <p className="rounded-xl border border-border bg-card p-6 text-lg shadow-soft">
          Nothing has been recorded yet.
        </p>
      ) : (
        <>
          <AuditLogTable entries={entries} />
          <AuditLogCards entries={entries} />
        </>
      )}
    </>
  );
}

export default function AuditLogsPage() {
  usePageTitle('Security Audit Logs');
  const { user } = useAuth();
  if (!user) return null;

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <BackHomeLink label="Back to home" />
      <div className="flex flex-col gap-3">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Security Audit Logs</h1>
        <p className="max-w-3xl text-lg text-muted-foreground">
          Every sign-in, password change and emergency access attempt on your account is written
          here, including attempts made by other people. Nothing here can be changed or deleted. The
          list brings itself up to date every 10 seconds.
        </p>
      </div>
      <AuditLogs userId={user.id} />
    </div>
  );
}
