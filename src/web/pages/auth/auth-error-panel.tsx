import { useLiveQuery } from 'dexie-react-hooks';
import { CircleAlert, Hourglass, MonitorSmartphone } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { DeviceMovePanel } from '@web/features/device-move/components/device-move-panel';
import { SendFromOldDevice } from '@web/features/transfer/components/send-from-old-device';
import type { TMoveCredentials } from '@web/lib/auth-api';
import { holdsAnyVideo } from '@web/lib/videos/local-store';
import { isApiError } from '@web/lib/api-client';
import { isDeviceBindingError } from '@web/features/auth/device-binding-error';
import { ResetDeviceButton } from './reset-device-button';

interface AuthErrorPanelProps {
  error: Error;
  view: 'login' | 'register';
  /** What was typed into the sign-in form, for moving the account to this device. */
  credentials?: TMoveCredentials | null;
  onResetDevice: () => void;
  /** Opens the emailed password reset: the way past a wait caused by others' wrong tries. */
  onForgotPassword: () => void;
}

/** The sign-in and registration error panels, chosen by error code. */
export function AuthErrorPanel({
  error,
  view,
  credentials,
  onResetDevice,
  onForgotPassword,
}: AuthErrorPanelProps) {
  if (view === 'login' && isApiError(error, 'ACCOUNT_DELAYED')) {
    // Someone else's wrong tries, not the person's: a calm wait, and the way past it.
    return (
      <Alert variant="warm" title="Login Failed" icon={<Hourglass aria-hidden="true" />}>
        <p>{error.message}</p>
        <div>
          <Button variant="outline" onClick={onForgotPassword}>
            Reset My Password by Email
          </Button>
        </div>
      </Alert>
    );
  }
  if (isDeviceBindingError(error, view)) {
    return (
      <DeviceDeniedPanel
        error={error}
        view={view}
        credentials={credentials}
        onResetDevice={onResetDevice}
      />
    );
  }

  return (
    <Alert
      variant="destructive"
      title={view === 'login' ? 'Login Failed' : 'Registration Failed'}
      icon={<CircleAlert aria-hidden="true" />}
    >
      <p>{error.message}</p>
    </Alert>
  );
}

/**
 * The account is tied to another device. Its owner may add this device or move the account here;
 * a device that keeps messages (most likely the old one, left behind by a move) may also send them
 * on.
 */
function DeviceDeniedPanel({
  error,
  view,
  credentials,
  onResetDevice,
}: Pick<AuthErrorPanelProps, 'error' | 'view' | 'credentials' | 'onResetDevice'>) {
  const keepsMessages = useLiveQuery(holdsAnyVideo, []) ?? false;
  const isLogin = view === 'login';
  const canMove = isLogin && isApiError(error, 'NOT_PRIMARY_DEVICE') && Boolean(credentials);
  const alert = (
    <Alert
      variant="destructive"
      title={isLogin ? 'Device Access Denied' : 'Device Already Registered'}
      icon={<MonitorSmartphone aria-hidden="true" />}
    >
      <p>{error.message}</p>
      {canMove && credentials && (
        <>
          <p>
            Your account is tied to the device where it was created, so that nobody else can open it
            from somewhere else.
          </p>
          <DeviceMovePanel credentials={credentials} keepsMessages={keepsMessages} />
        </>
      )}
      <p>
        {isLogin
          ? 'If this device should now hold a different account, you can reset it.'
          : 'Each device holds one account, so what is recorded on it stays private. If the account here is yours, sign in instead.'}
      </p>
      <ResetDeviceButton onResetDevice={onResetDevice} />
    </Alert>
  );
  // Outside the alert: a move in progress is not something to announce as an error.
  return canMove && credentials && keepsMessages ? (
    <>
      {alert}
      <SendFromOldDevice credentials={credentials} />
    </>
  ) : (
    alert
  );
}
