import { PagePlaceholder } from '@web/components/page-placeholder';

export default function AboutPage() {
  return (
    <PagePlaceholder title="About">
      <p>
        Our mission, how Memento keeps your data and our privacy commitment will be set out here in
        a coming release.
      </p>
    </PagePlaceholder>
  );
}
