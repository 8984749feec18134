import { PagePlaceholder } from '@web/components/page-placeholder';

export default function AuditLogsPage() {
  return (
    <PagePlaceholder title="Security Audit Logs">
      <p>
        Your sign-ins and device resets are already being recorded; the page to read them arrives in
        a coming release.
      </p>
    </PagePlaceholder>
  );
}
