import { PagePlaceholder } from '@web/components/page-placeholder';

export default function PremiumPage() {
  return (
    <PagePlaceholder title="Upgrade to Premium">
      <p>Paid plans are not available yet. Upgrading arrives in a coming release.</p>
    </PagePlaceholder>
  );
}
