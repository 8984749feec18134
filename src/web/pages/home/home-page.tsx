import { Suspense, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  HardDrive,
  Hourglass,
  KeyRound,
  LogIn,
  LogOut,
  MonitorCheck,
  MonitorX,
  RotateCcw,
  ScrollText,
  ShieldAlert,
  UserRound,
  Users,
  Video,
} from 'lucide-react';
import { hasCloudSync } from '@shared/domain/plan-limits';
import { isPrimaryUser } from '@web/lib/auth-api';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { PageSpinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useAuth } from '@web/lib/auth-provider';
import { MissingVideosWarning } from '@web/features/backup/components/missing-videos-warning';
import { StoragePanel } from '@web/features/backup/components/storage-panel';
import { useDeviceResetDialogs } from '@web/features/device-reset/use-device-reset-dialogs';
import { takeWelcomeToast } from '@web/features/onboarding/onboarding-api';
import { InterruptedRecordingNotice } from '@web/features/recorder/components/interrupted-recording-notice';
import { usePageTitle } from '@web/lib/use-page-title';
import { VideoCountLine } from './video-count-line';
import { type TKeptWhere, WelcomeBanner } from './welcome-banner';
import { CloudLibrary } from '@web/features/cloud/components/cloud-library';
import { MessageRelease } from '@web/features/legacy/components/message-release';
import { BillingNotice } from '@web/features/billing/components/billing-notice';
import { NonPrimaryDeviceAlert } from '@web/features/device/components/non-primary-device-alert';
import { useCloudStatus } from '@web/features/cloud/cloud-api';
import { lazyNamed } from '@web/lib/lazy-named';
import { lazyDateFormat } from '@web/lib/date-format';

// What the owner's first screen does not show loads when it is needed: a recipient's home and
// the password dialog (with the form checks it brings) are not part of it.
const RecipientHome = lazyNamed(() => import('./recipient-home'), 'RecipientHome');
const ResetPasswordDialog = lazyNamed(
  () => import('@web/features/passwords/components/reset-password-dialog'),
  'ResetPasswordDialog',
);

const syncTimeFormat = lazyDateFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

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

function formatLastSync(lastSyncAt: string | null | undefined): string {
  if (!lastSyncAt) return 'Never';
  const date = new Date(lastSyncAt);
  return Number.isNaN(date.getTime()) ? 'Never' : syncTimeFormat.format(date);
}

/**
 * Which device this is and when it last synced. The cloud's answer (asked again every 15 s) draws
 * this line again, not the whole page.
 */
function DeviceLine({
  isPrimaryDevice,
  keptLastSyncAt,
}: {
  isPrimaryDevice: boolean;
  keptLastSyncAt: string | null | undefined;
}) {
  const cloudStatus = useCloudStatus();
  const lastSync = formatLastSync(cloudStatus.data?.lastSyncAt ?? keptLastSyncAt);
  return (
    <p className="flex items-center gap-2.5 px-1 text-base text-muted-foreground">
      {isPrimaryDevice ? (
        <MonitorCheck className="size-5 shrink-0 text-success" aria-hidden="true" />
      ) : (
        <MonitorX className="size-5 shrink-0" aria-hidden="true" />
      )}
      <span>
        {isPrimaryDevice ? 'This is your primary device' : 'This is not your primary device'}
        {' · '}
        Last sync: {lastSync}
      </span>
    </p>
  );
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

      {!isCloudSynced && (
        // Standing information, there on every visit: a note, which does not interrupt.
        <Alert
          variant="warm"
          kind="note"
          title="Community Edition - Local Storage"
          icon={<HardDrive aria-hidden="true" />}
        >
          <p>
            Your video messages are saved only on this device, in this browser. They are not backed
            up to the cloud, so if this device is lost or its browser data is cleared, they cannot
            be recovered.
          </p>
          <div>
            <Button asChild variant="outline">
              <Link to="/features">View Plans</Link>
            </Button>
          </div>
        </Alert>
      )}

      {canManageSecurity && (
        <Card asChild>
          <section aria-labelledby="messages-heading">
            <CardHeader>
              <h2
                id="messages-heading"
                className="flex items-center gap-3 text-xl font-bold tracking-tight sm:text-2xl"
              >
                <Video className="size-6 text-primary" aria-hidden="true" />
                Your video messages
              </h2>
              <CardDescription>
                Record a message for someone you love, or manage who you record for.
              </CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col gap-3 sm:flex-row">
              <Button asChild size="lg">
                <Link to="/record">
                  <Video aria-hidden="true" />
                  Record New Video Message
                </Link>
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link to="/recipients">
                  <Users aria-hidden="true" />
                  Manage Recipients
                </Link>
              </Button>
            </CardContent>
          </section>
        </Card>
      )}

      <CloudLibrary user={user} isPrimaryDevice={isPrimaryDevice} releaseControl={MessageRelease} />

      {canManageSecurity && <StoragePanel user={user} />}

      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <h2 className="flex items-center gap-3 text-xl font-bold tracking-tight sm:text-2xl">
              <UserRound className="size-6 text-primary" aria-hidden="true" />
              Your account
            </h2>
          </CardHeader>
          <CardContent className="flex flex-col gap-5">
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-base">
              <dt className="text-muted-foreground">Name</dt>
              <dd className="font-semibold break-words">
                {user.firstName} {user.lastName}
              </dd>
              <dt className="text-muted-foreground">Username</dt>
              <dd className="font-semibold break-all">{user.username}</dd>
              <dt className="text-muted-foreground">Email</dt>
              <dd className="font-semibold break-all">{user.email}</dd>
            </dl>
            <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap md:flex-col lg:flex-row">
              {canManageSecurity && (
                <>
                  <Button asChild variant="outline">
                    <Link to="/audit-logs">
                      <ScrollText aria-hidden="true" />
                      View Security Audit Logs
                    </Link>
                  </Button>
                  <Button variant="outline" onClick={() => setOpenDialog('password')}>
                    <KeyRound aria-hidden="true" />
                    Reset Password
                  </Button>
                  <Button asChild variant="outline">
                    <Link to="/sign-in-methods">
                      <LogIn aria-hidden="true" />
                      Sign-in Methods
                    </Link>
                  </Button>
                </>
              )}
              <Button asChild variant="outline">
                <Link to="/legacy">
                  <Hourglass aria-hidden="true" />
                  Legacy release
                </Link>
              </Button>
              <Button variant="outline" onClick={signOut}>
                <LogOut aria-hidden="true" />
                Sign Out
              </Button>
            </div>
          </CardContent>
        </Card>

        <Card asChild>
          <section aria-labelledby="this-device-heading">
            <CardHeader>
              <h2
                id="this-device-heading"
                className="flex items-center gap-3 text-xl font-bold tracking-tight sm:text-2xl"
              >
                <MonitorCheck className="size-6 text-primary" aria-hidden="true" />
                This device
              </h2>
              <CardDescription>
                {isPrimaryDevice
                  ? 'Your account is tied to this device.'
                  : 'This device is added to your account to watch your messages.'}{' '}
                If it is being passed on to someone else, free it first.
              </CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col gap-3 sm:flex-row sm:flex-wrap md:flex-col lg:flex-row">
              <Button variant="outline" onClick={openReset}>
                <RotateCcw aria-hidden="true" />
                Reset Device Association
              </Button>
              <Button variant="ghost-destructive" onClick={openEmergency}>
                <ShieldAlert aria-hidden="true" />
                Emergency Device Reset
              </Button>
            </CardContent>
          </section>
        </Card>
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
