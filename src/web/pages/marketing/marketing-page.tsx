import { PagePlaceholder } from '@web/components/page-placeholder';

export default function MarketingPage() {
  return (
    <PagePlaceholder title="Memento for Care Homes">
      <p>
        A short presentation for care homes, residents and families arrives in a coming release.
      </p>
    </PagePlaceholder>
  );
}
