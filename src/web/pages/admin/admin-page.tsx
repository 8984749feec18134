import { PagePlaceholder } from '@web/components/page-placeholder';

export default function AdminPage() {
  return (
    <PagePlaceholder title="Admin Dashboard">
      <p>Managing users, plans and device associations arrives in a coming release.</p>
    </PagePlaceholder>
  );
}
