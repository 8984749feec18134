import { PagePlaceholder } from '@web/components/page-placeholder';

export default function RecordPage() {
  return (
    <PagePlaceholder title="Record a Message">
      <p>Recording video messages arrives in a coming release.</p>
    </PagePlaceholder>
  );
}
