import { Suspense, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { hasCloudSync } from '@shared/domain/plan-limits';
import { isPrimaryUser } from '@web/lib/auth-api';
import { PageSpinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useAuth } from '@web/lib/auth-provider';
import { MissingVideosWarning } from '@web/features/backup/components/missing-videos-warning';
import { StoragePanel } from '@web/features/backup/components/storage-panel';
import { useDeviceResetDialogs } from '@web/features/device-reset/use-device-reset-dialogs';
import { takeWelcomeToast } from '@web/features/onboarding/onboarding-api';
import { InterruptedRecordingNotice } from '@web/features/recorder/components/interrupted-recording-notice';
import { usePageTitle } from '@web/lib/use-page-title';
import { DeviceLine } from './device-line';
import { AccountCard, LocalStorageNote, MessagesCard, ThisDeviceCard } from './home-cards';
import { VideoCountLine } from './video-count-line';
import { type TKeptWhere, WelcomeBanner } from './welcome-banner';
import { CloudLibrary } from '@web/features/cloud/components/cloud-library';
import { MessageRelease } from '@web/features/legacy/components/message-release';
import { BillingNotice } from '@web/features/billing/components/billing-notice';
import { NonPrimaryDeviceAlert } from '@web/features/device/components/non-primary-device-alert';
import { MoveMessagesCard } from '@web/features/transfer/components/move-messages-card';
import { MyCareHomeCard } from '@web/features/care-homes/components/my-care-home-card';
import { MyCareTeamShares } from '../care-home/my-care-team-shares';
import { lazyNamed } from '@web/lib/lazy-named';

// What the owner's first screen does not show loads when it is needed: a recipient's home and
// the password dialog (with the form checks it brings) are not part of it.
const RecipientHome = lazyNamed(() => import('./recipient-home'), 'RecipientHome');
const ResetPasswordDialog = lazyNamed(
  () => import('@web/features/passwords/components/reset-password-dialog'),
  'ResetPasswordDialog',
);

/** Shown for 5 s after the full page load that ends onboarding. */
const WELCOME_TOAST_MS = 5000;

function showWelcomeToast() {
  const welcome = takeWelcomeToast();
  if (!welcome) return;
  toast({
    variant: 'success',
    title: 'Welcome to Memento!',
    description: `Your account is fully set up. ${welcome.nextOfKinFirstName} will receive emergency access details by email.`,
    duration: WELCOME_TOAST_MS,
  });
}

/** An added device keeps nothing of its own until it plays a message. */
function keptWhereFor(isPrimaryDevice: boolean, hasCloudSync: boolean): TKeptWhere {
  if (!isPrimaryDevice) return 'cloud';
  return hasCloudSync ? 'device-and-cloud' : 'device';
}

export default function HomePage() {
  usePageTitle('Home');
  const { user, deviceStatus, logout } = useAuth();
  const navigate = useNavigate();
  const { openReset, openEmergency, dialogs } = useDeviceResetDialogs();
  const [openDialog, setOpenDialog] = useState<'password' | null>(null);

  useEffect(showWelcomeToast, []);

  if (!user) return null;
  if (user.category !== 'primary') {
    return (
      <Suspense fallback={<PageSpinner />}>
        <RecipientHome user={user} />
      </Suspense>
    );
  }

  const canManageSecurity = isPrimaryUser(user);
  const setDialogOpen = (dialog: typeof openDialog) => (isOpen: boolean) =>
    setOpenDialog(isOpen ? dialog : null);

  const isPrimaryDevice = deviceStatus?.isPrimary ?? user.deviceStatus === 'primary';
  // One rule for the banner, the local-storage card and the sync itself (app-layout.tsx): an
  // admin or a VIP on the free tier has the cloud, so is told neither 'only on this device' nor
  // to view the plans.
  const isCloudSynced = hasCloudSync(user);
  const keptWhere = keptWhereFor(isPrimaryDevice, isCloudSynced);

  function signOut() {
    logout()
      .then(() => navigate('/auth'))
      // The 'Logout failed' toast has told the person; they stay signed in.
      .catch(() => undefined);
  }

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 sm:gap-8">
      <div className="flex flex-col gap-3">
        <WelcomeBanner firstName={user.firstName} keptWhere={keptWhere} />
        <DeviceLine
          isPrimaryDevice={isPrimaryDevice}
          keptLastSyncAt={deviceStatus?.lastSyncAt ?? user.deviceSync?.lastSyncAt}
        />
        {canManageSecurity && <VideoCountLine userId={user.id} />}
      </div>

      <BillingNotice user={user} />

      {!isPrimaryDevice && user.isPrimary && !user.isAdmin && !user.isVIP && (
        <NonPrimaryDeviceAlert />
      )}
      {canManageSecurity && <InterruptedRecordingNotice creatorId={user.id} />}
      {canManageSecurity && <MissingVideosWarning user={user} />}

      {!isCloudSynced && <LocalStorageNote />}

      {canManageSecurity && <MessagesCard />}

      <CloudLibrary user={user} isPrimaryDevice={isPrimaryDevice} releaseControl={MessageRelease} />

      {canManageSecurity && <StoragePanel user={user} />}

      {canManageSecurity && <MoveMessagesCard />}

      {canManageSecurity && (
        <MyCareHomeCard>
          <MyCareTeamShares />
        </MyCareHomeCard>
      )}

      <div className="grid gap-6 md:grid-cols-2">
        <AccountCard
          user={user}
          canManageSecurity={canManageSecurity}
          onResetPassword={() => setOpenDialog('password')}
          onSignOut={signOut}
        />

        <ThisDeviceCard
          isPrimaryDevice={isPrimaryDevice}
          onReset={openReset}
          onEmergencyReset={openEmergency}
        />
      </div>

      {dialogs}
      {canManageSecurity && openDialog === 'password' && (
        <Suspense fallback={null}>
          <ResetPasswordDialog open onOpenChange={setDialogOpen('password')} />
        </Suspense>
      )}
    </div>
  );
}
