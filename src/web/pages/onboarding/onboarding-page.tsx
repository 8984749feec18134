import { PagePlaceholder } from '@web/components/page-placeholder';

export default function OnboardingPage() {
  return (
    <PagePlaceholder title="Getting Started">
      <p>
        A short four-step setup, including choosing your next of kin, arrives in a coming release.
      </p>
    </PagePlaceholder>
  );
}
