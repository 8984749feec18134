import { Link } from 'react-router';
import {
  Building2,
  HardDrive,
  Hourglass,
  KeyRound,
  LogIn,
  LogOut,
  MonitorCheck,
  RotateCcw,
  ScrollText,
  ShieldAlert,
  UserRound,
  Users,
  Video,
} from 'lucide-react';
import type { TUser } from '@shared/schemas/auth';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';

/** On the free plan: the videos are only on this device, with the way to the plans. */
export function LocalStorageNote() {
  return (
    // Standing information, there on every visit: a note, which does not interrupt.
    <Alert
      variant="warm"
      kind="note"
      title="Community Edition - Local Storage"
      icon={<HardDrive aria-hidden="true" />}
    >
      <p>
        Your video messages are saved only on this device, in this browser. They are not backed up
        to the cloud, so if this device is lost or its browser data is cleared, they cannot be
        recovered.
      </p>
      <div>
        <Button asChild variant="outline">
          <Link to="/features">View Plans</Link>
        </Button>
      </div>
    </Alert>
  );
}

/** Record a message, or manage who it is for. */
export function MessagesCard() {
  return (
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
  );
}

interface AccountCardProps {
  user: TUser;
  canManageSecurity: boolean;
  onResetPassword: () => void;
  onSignOut: () => void;
}

/** Who is signed in, with the security log, password, sign-in methods, legacy and sign-out. */
export function AccountCard({
  user,
  canManageSecurity,
  onResetPassword,
  onSignOut,
}: AccountCardProps) {
  return (
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
              <Button variant="outline" onClick={onResetPassword}>
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
          {user.category === 'primary' && user.subscriptionTier === 'professional' && (
            <Button asChild variant="outline">
              <Link to="/care-home">
                <Building2 aria-hidden="true" />
                Your care home
              </Link>
            </Button>
          )}
          <Button variant="outline" onClick={onSignOut}>
            <LogOut aria-hidden="true" />
            Sign Out
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

interface ThisDeviceCardProps {
  isPrimaryDevice: boolean;
  onReset: () => void;
  onEmergencyReset: () => void;
}

/** Freeing this device before it is passed on, in the ordinary way or the emergency one. */
export function ThisDeviceCard({
  isPrimaryDevice,
  onReset,
  onEmergencyReset,
}: ThisDeviceCardProps) {
  return (
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
          <Button variant="outline" onClick={onReset}>
            <RotateCcw aria-hidden="true" />
            Reset Device Association
          </Button>
          <Button variant="ghost-destructive" onClick={onEmergencyReset}>
            <ShieldAlert aria-hidden="true" />
            Emergency Device Reset
          </Button>
        </CardContent>
      </section>
    </Card>
  );
}
