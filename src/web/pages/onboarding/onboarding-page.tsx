import { useState } from 'react';
import { Navigate } from 'react-router';
import type { TOnboardedNextOfKin } from '@web/features/onboarding/components/use-complete-onboarding';
import { needsOnboarding } from '@web/lib/auth-api';
import { useAuth } from '@web/lib/auth-provider';
import { OnboardingComplete } from '@web/features/onboarding/components/onboarding-complete';
import { OnboardingWizard } from '@web/features/onboarding/components/onboarding-wizard';
import { usePageTitle } from '@web/lib/use-page-title';

export default function OnboardingPage() {
  usePageTitle('Getting Started');
  const { user } = useAuth();
  // Decided on arrival: finishing setup here must not send the person away from their code.
  const [isNeeded] = useState(() => Boolean(user && needsOnboarding(user)));
  const [nextOfKin, setNextOfKin] = useState<TOnboardedNextOfKin | null>(null);

  if (!user) return null;
  if (nextOfKin) {
    return (
      <OnboardingComplete nextOfKin={nextOfKin} ownerName={`${user.firstName} ${user.lastName}`} />
    );
  }
  if (!isNeeded) return <Navigate to="/" replace />;
  return <OnboardingWizard onCompleted={setNextOfKin} />;
}
