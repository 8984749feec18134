import { PagePlaceholder } from '@web/components/page-placeholder';

export default function SupportPage() {
  return (
    <PagePlaceholder title="Counselling & Support">
      <p>
        Wellbeing guidance and bereavement, crisis and palliative care contacts arrive in a coming
        release.
      </p>
      <p className="font-semibold text-foreground">
        In an emergency, call 999 (UK), 911 (USA and Canada), 112 (EU), 000 (Australia) or 111 (New
        Zealand).
      </p>
    </PagePlaceholder>
  );
}
