import { PagePlaceholder } from '@web/components/page-placeholder';

export default function ImportFromMobilePage() {
  return (
    <PagePlaceholder title="Import from Mobile">
      <p>Bringing videos over from your phone arrives in a coming release.</p>
    </PagePlaceholder>
  );
}
