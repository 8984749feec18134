import { PagePlaceholder } from '@web/components/page-placeholder';

export default function SetupPasswordPage() {
  return (
    <PagePlaceholder title="Set Your Password">
      <p>
        Choosing your own password for an account that was set up for you arrives in a coming
        release.
      </p>
    </PagePlaceholder>
  );
}
