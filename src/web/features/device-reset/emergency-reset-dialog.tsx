import { useEffect, useId, useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { CircleAlert, CircleCheck, TriangleAlert } from 'lucide-react';
import { isValidDeviceId } from '@shared/domain/device';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Checkbox } from '@web/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { Label } from '@web/components/ui/label';
import { Spinner } from '@web/components/ui/spinner';
import { cacheDeviceStatus, cacheUser } from '@web/lib/auth-api';
import { saveDeviceId } from '@web/lib/device-id';
import { RESET_TEXT, emergencyResetDevice } from './device-reset-api';

/**
 * The confirm button waits 5 s, time to read the warning; the dialog resets 300 ms after closing.
 */
const COUNTDOWN_SECONDS = 5;
const CLOSE_RESET_DELAY_MS = 300;
const RELOAD_DELAY_MS = 2000;

type TStep = 'warning' | 'processing' | 'success' | 'error';

interface WarningStepProps {
  onCancel: () => void;
  onConfirm: () => void;
}

/** Mounted afresh each time the warning shows, so the countdown and checkbox start over. */
function WarningStep({ onCancel, onConfirm }: WarningStepProps) {
  const checkboxId = useId();
  const [secondsLeft, setSecondsLeft] = useState(COUNTDOWN_SECONDS);
  const [isUnderstood, setIsUnderstood] = useState(false);

  useEffect(() => {
    const timer = window.setInterval(() => {
      setSecondsLeft((seconds) => {
        if (seconds <= 1) window.clearInterval(timer);
        return Math.max(0, seconds - 1);
      });
    }, 1000);
    return () => window.clearInterval(timer);
  }, []);

  const isCountingDown = secondsLeft > 0;

  return (
    <>
      <Alert
        kind="note"
        variant="warm"
        title="Please read before you continue"
        icon={<TriangleAlert aria-hidden="true" />}
      >
        <ul className="flex list-disc flex-col gap-2 pl-5">
          <li>This browser gets a new device identity, like a new device.</li>
          <li>Videos already stored in this browser stay here.</li>
          <li>
            The account registered here stays tied to the old identity and can no longer be used
            from this browser.
          </li>
        </ul>
      </Alert>

      <div className="flex items-start gap-3">
        <Checkbox
          id={checkboxId}
          checked={isUnderstood}
          onCheckedChange={(checked) => setIsUnderstood(checked === true)}
          className="-mt-1.5"
        />
        <Label htmlFor={checkboxId} className="cursor-pointer font-normal">
          I understand this browser will get a new device identity
        </Label>
      </div>

      <DialogFooter>
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button
          variant="destructive"
          disabled={isCountingDown || !isUnderstood}
          onClick={onConfirm}
        >
          {isCountingDown ? `Reset This Device (${secondsLeft})` : 'Reset This Device'}
        </Button>
      </DialogFooter>
    </>
  );
}

interface EmergencyResetDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}

/** Emergency device reset: warning → processing → success (reload) or error. */
export function EmergencyResetDialog({
  open,
  onOpenChange,
  onCloseAutoFocus,
}: EmergencyResetDialogProps) {
  const [step, setStep] = useState<TStep>('warning');
  const [warningRun, setWarningRun] = useState(0);
  const resetTimer = useRef<number | undefined>(undefined);

  const reset = useMutation({
    mutationFn: async () => {
      const result = await emergencyResetDevice();
      if (!isValidDeviceId(result.deviceId)) throw new Error('No device ID available');
      return result.deviceId;
    },
    onMutate: () => setStep('processing'),
    onSuccess: (deviceId) => {
      saveDeviceId(deviceId);
      cacheUser(null);
      cacheDeviceStatus(null);
      setStep('success');
      window.setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
    },
    onError: () => setStep('error'),
  });

  useEffect(() => () => window.clearTimeout(resetTimer.current), []);

  function changeOpen(isOpen: boolean) {
    if (step === 'processing' || step === 'success') return;
    onOpenChange(isOpen);
    window.clearTimeout(resetTimer.current);
    if (!isOpen) {
      resetTimer.current = window.setTimeout(() => {
        setStep('warning');
        setWarningRun((run) => run + 1);
        reset.reset();
      }, CLOSE_RESET_DELAY_MS);
    }
  }

  const isLocked = step === 'processing' || step === 'success';

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent hideClose={isLocked} onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>{RESET_TEXT.emergencyTitle}</DialogTitle>
          <DialogDescription>
            For a device registered to an account you cannot reset, such as a shared tablet.
          </DialogDescription>
        </DialogHeader>

        {step === 'warning' && (
          <WarningStep
            key={warningRun}
            onCancel={() => changeOpen(false)}
            onConfirm={() => reset.mutate()}
          />
        )}

        {step === 'processing' && (
          <div role="status" className="flex items-center gap-4 py-4 text-lg font-semibold">
            <Spinner />
            Resetting...
          </div>
        )}

        {step === 'success' && (
          <div role="status" className="flex flex-col items-center gap-3 py-4 text-center">
            <CircleCheck className="size-14 text-success" aria-hidden="true" />
            <p className="text-xl font-bold">{RESET_TEXT.succeeded}</p>
            <p className="text-muted-foreground">
              This browser now has a new device identity. The page will reload in a moment.
            </p>
          </div>
        )}

        {step === 'error' && (
          <>
            <Alert
              variant="destructive"
              title={RESET_TEXT.failed}
              icon={<CircleAlert aria-hidden="true" />}
            >
              <p>{reset.error?.message ?? 'Device reset failed. Please try again.'}</p>
            </Alert>
            <DialogFooter>
              <Button variant="outline" onClick={() => changeOpen(false)}>
                Close
              </Button>
              <Button
                onClick={() => {
                  reset.reset();
                  setWarningRun((run) => run + 1);
                  setStep('warning');
                }}
              >
                Try Again
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
