import { ArrowLeft } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import type { TView } from './auth-views';
import { ResetDeviceButton } from './reset-device-button';

interface AuthLinksProps {
  view: TView;
  /** A device refusal is explained above, with its own way to free the device. */
  isDeviceRefused: boolean;
  switchTo: (view: TView) => void;
  onResetDevice: () => void;
}

/** Under the form: the other views, and freeing a shared or second-hand device. */
export function AuthLinks({ view, isDeviceRefused, switchTo, onResetDevice }: AuthLinksProps) {
  const isFormView = view === 'login' || view === 'register';
  return (
    <>
      {view === 'login' && (
        <div className="flex flex-col items-center gap-1 text-center">
          <Button variant="link" onClick={() => switchTo('forgot_password')}>
            Forgot your password?
          </Button>
          <Button variant="link" onClick={() => switchTo('break_glass')}>
            Emergency access for next of kin
          </Button>
        </div>
      )}

      {isFormView ? (
        <div className="flex flex-col items-center gap-1 border-t border-border pt-5 text-center">
          <p className="text-muted-foreground">
            {view === 'login' ? 'New to Memento?' : 'Already have an account?'}
          </p>
          <Button variant="link" onClick={() => switchTo(view === 'login' ? 'register' : 'login')}>
            {view === 'login' ? 'Create an account' : 'Sign in instead'}
          </Button>
        </div>
      ) : (
        <div className="flex flex-col items-center gap-1 border-t border-border pt-5 text-center">
          {view === 'reset_password' && (
            <Button variant="link" onClick={() => switchTo('forgot_password')}>
              Send me a new code
            </Button>
          )}
          <Button variant="link" onClick={() => switchTo('login')}>
            <ArrowLeft aria-hidden="true" />
            Back to sign in
          </Button>
        </div>
      )}

      {view === 'login' && !isDeviceRefused && (
        <div className="flex flex-col gap-3 rounded-lg bg-muted p-5">
          <p className="font-semibold">Setting up a shared or second-hand device?</p>
          <p className="text-base text-muted-foreground">
            Each device holds one account. If an account is registered here that should no longer
            be, you can free this device.
          </p>
          <ResetDeviceButton onResetDevice={onResetDevice} />
        </div>
      )}
    </>
  );
}
