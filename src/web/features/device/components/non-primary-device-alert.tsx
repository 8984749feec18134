import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Cloud, MonitorSmartphone, ShieldCheck, Star } from 'lucide-react';
import { Link } from 'react-router';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { toast } from '@web/components/ui/use-toast';
import { getDeviceId } from '@web/lib/device-id';
import { apiRequest, describeError, isApiError } from '@web/lib/api-client';

/** The 'Premium Feature' dialog: what the paid plans add, and the way to them. */
function PremiumFeatureDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Premium Feature</DialogTitle>
          <DialogDescription>
            Choosing which device is your primary device is part of the paid plans.
          </DialogDescription>
        </DialogHeader>
        <ul className="flex flex-col gap-3 text-lg">
          <li className="flex items-start gap-3">
            <MonitorSmartphone className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
            Unlimited device sync: watch your messages on your phone, tablet and computer
          </li>
          <li className="flex items-start gap-3">
            <Cloud className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
            Automatic content backup: every message kept safe in the cloud
          </li>
        </ul>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Not now
          </Button>
          <Button asChild>
            <Link to="/premium">
              <Star aria-hidden="true" />
              Upgrade to Premium
            </Link>
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/**
 * On a device that is not the account's primary one, a plain alert with 'Make Primary' (POST
 * /api/device/set-primary). Free plans are shown the Premium Feature dialog instead.
 */
export function NonPrimaryDeviceAlert() {
  const queryClient = useQueryClient();
  const [isBusy, setIsBusy] = useState(false);
  const [isUpgradeOpen, setIsUpgradeOpen] = useState(false);

  async function makePrimary() {
    setIsBusy(true);
    try {
      const result = await apiRequest<{ message: string }>('/api/device/set-primary', {
        method: 'POST',
        body: { deviceId: getDeviceId() },
      });
      toast({ variant: 'success', title: 'Success', description: result.message });
      await queryClient.invalidateQueries();
    } catch (error) {
      if (isApiError(error, 'UPGRADE_REQUIRED')) {
        setIsUpgradeOpen(true);
      } else {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: describeError(error, 'Failed to set device as primary'),
        });
      }
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <>
      <Alert
        variant="info"
        title="This is not your primary device"
        icon={<ShieldCheck aria-hidden="true" />}
      >
        <p>
          You can watch your messages here. To record on this device, make it your primary device;
          your other device will then only watch.
        </p>
        <div>
          <Button onClick={() => void makePrimary()} disabled={isBusy}>
            {isBusy ? 'Making it primary...' : 'Make Primary'}
          </Button>
        </div>
      </Alert>
      <PremiumFeatureDialog open={isUpgradeOpen} onOpenChange={setIsUpgradeOpen} />
    </>
  );
}
