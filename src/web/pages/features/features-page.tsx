import { PagePlaceholder } from '@web/components/page-placeholder';

export default function FeaturesPage() {
  return (
    <PagePlaceholder title="Features & Pricing">
      <p>
        The plans and what each one includes will be listed here in a coming release. The Community
        Edition is free and keeps your videos on your device.
      </p>
    </PagePlaceholder>
  );
}
