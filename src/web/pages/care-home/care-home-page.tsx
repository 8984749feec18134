import { useEffect } from 'react';
import { Navigate, Link } from 'react-router';
import { BackHomeLink } from '@web/components/back-home-link';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { PageSpinner } from '@web/components/ui/spinner';
import { useCareHome } from '@web/features/care-homes/care-homes-api';
import { useHomeSupport } from '@web/features/support/support-api';
import { describeError } from '@web/lib/api-client';
import { useAuth } from '@web/lib/auth-provider';
import { usePageTitle } from '@web/lib/use-page-title';
import { CARE_HOME_MESSAGES } from '@shared/schemas/care-homes';
import { HomeSetup } from './home-setup';
import { InvitationLetters } from './invitation-letters';
import { ProgressTable } from './progress-table';
import { ResidentsImport } from './residents-import';
import { StaffSection } from './staff-section';
import { StationPinSection, StationSection } from './station-section';
import { SupportSection } from './support-section';
import { SharedWithCareTeam } from './care-team-shared';

const PAGE_TITLE = 'Your care home';

/**
 * The manager's care home: its name, colour and logo; its staff; residents imported from a file;
 * and how each resident is getting on, in counts and dates (never their messages).
 */
export default function CareHomePage() {
  usePageTitle(PAGE_TITLE);
  const { user } = useAuth();
  if (user?.category !== 'primary') return <Navigate to="/" replace />;
  return <CareHome />;
}

function CareHome() {
  const { data, isLoading, error } = useCareHome();
  // Staff have no home of their own here, but may ask for help for the home they work at.
  const { data: support, refetch: refetchSupport } = useHomeSupport();
  const home = data?.home ?? null;
  const homeId = home?.id;
  // A home just set up may now ask for help.
  useEffect(() => {
    if (homeId !== undefined) void refetchSupport();
  }, [homeId, refetchSupport]);
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <BackHomeLink />
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{PAGE_TITLE}</h1>
        <p className="text-lg text-muted-foreground">
          Set up your home, invite your staff and add your residents. Each resident&rsquo;s messages
          stay their own: you and your staff see how they are getting on, never what they recorded,
          unless a resident shares a message with the care team.
        </p>
      </div>
      {isLoading && <PageSpinner label="Loading your care home" />}
      {error && (
        <Alert variant="destructive" title="Your care home could not be loaded">
          <p>{describeError(error, 'Please try again.')}</p>
        </Alert>
      )}
      {data && !data.hasPlan && !support && (
        <Alert variant="warm" title="Care-home tools come with Professional">
          <p>{CARE_HOME_MESSAGES.planRequired}</p>
          <Button asChild className="self-start">
            <Link to="/features">See the plans</Link>
          </Button>
        </Alert>
      )}
      {data?.hasPlan && <HomeSetup key={home ? `${home.id}` : 'new'} home={home} />}
      {data?.hasPlan && home && (
        <>
          <StaffSection />
          <ResidentsImport />
          <ProgressTable />
          <InvitationLetters />
          <StationSection />
        </>
      )}
      {data && !data.hasPlan && <StationPinSection />}
      <SharedWithCareTeam />
      {support && <SupportSection support={support} />}
    </div>
  );
}
