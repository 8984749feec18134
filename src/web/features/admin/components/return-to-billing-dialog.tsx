import { useState } from 'react';
import { Undo2 } from 'lucide-react';
import type { TAdminUser } from '@shared/schemas/admin';
import { PendingSafeDialog } from '@web/components/pending-safe-dialog';
import { toast } from '@web/components/ui/use-toast';
import { describeError } from '@web/lib/api-client';
import { describeTier, describeUser } from '../admin-format';
import { returnUserToBilling } from '../admin-api';

interface ReturnToBillingDialogProps {
  user: TAdminUser | null;
  onOpenChange: (open: boolean) => void;
  onReturned: (user: TAdminUser) => void;
}

/** Clears an administrator's tier setting, so the account's payments decide its plan again. */
export function ReturnToBillingDialog({
  user,
  onOpenChange,
  onReturned,
}: ReturnToBillingDialogProps) {
  const [isSaving, setIsSaving] = useState(false);
  const plan = describeTier(user?.billedTier ?? 'free');

  async function confirm() {
    if (!user) return;
    setIsSaving(true);
    try {
      const saved = await returnUserToBilling(user.id);
      toast({
        variant: 'success',
        title: `${describeUser(saved)} follows billing again`,
        description: `Their plan is now ${describeTier(saved.subscriptionTier)}.`,
      });
      onReturned(saved);
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Error returning to billing',
        description: describeError(error, 'Failed to return the account to billing'),
      });
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <PendingSafeDialog
      open={user !== null}
      onOpenChange={onOpenChange}
      isPending={isSaving}
      title="Return to billing?"
      description={`Their plan will follow their payments again: ${plan}.`}
      onSubmit={() => void confirm()}
      submitLabel="Return to billing"
      pendingLabel="Saving..."
      submitIcon={<Undo2 aria-hidden="true" />}
    />
  );
}
