import { lazy, Suspense, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { toast } from '@web/components/ui/use-toast';

import { getDeviceId } from '@web/lib/device-id';
import { apiRequest, describeError, isApiError } from '@web/lib/api-client';

// The dialog's code loads when a free plan's person presses 'Make Primary', not with the dashboard.
const PremiumFeatureDialog = lazy(() => import('./premium-feature-dialog'));

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
      {isUpgradeOpen && (
        <Suspense fallback={null}>
          <PremiumFeatureDialog onOpenChange={setIsUpgradeOpen} />
        </Suspense>
      )}
    </>
  );
}
