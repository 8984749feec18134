import { PagePlaceholder } from '@web/components/page-placeholder';

export default function FaqPage() {
  return (
    <PagePlaceholder title="Frequently Asked Questions">
      <p>
        Answers to common questions about security, access, recording and storage arrive in a coming
        release.
      </p>
    </PagePlaceholder>
  );
}
