import { PagePlaceholder } from '@web/components/page-placeholder';

export default function AboutMementoPage() {
  return (
    <PagePlaceholder title="About Memento">
      <p>The story of Memento and why it exists will be told here in a coming release.</p>
    </PagePlaceholder>
  );
}
