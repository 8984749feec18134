import { Undo2 } from 'lucide-react';
import type { TAdminUser } from '@shared/schemas/admin';
import { returnUserToBilling } from '../admin-api';
import { describeTier, describeUser } from '../admin-format';
import { UserActionDialog } from './user-action-dialog';

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
  return (
    <UserActionDialog
      user={user}
      onOpenChange={onOpenChange}
      run={(target) => returnUserToBilling(target.id)}
      onDone={onReturned}
      success={(saved) => ({
        title: `${describeUser(saved)} follows billing again`,
        description: `Their plan is now ${describeTier(saved.subscriptionTier)}.`,
      })}
      failure={{
        title: 'Error returning to billing',
        fallback: 'Failed to return the account to billing',
      }}
      title="Return to billing?"
      description={`Their plan will follow their payments again: ${describeTier(user?.billedTier ?? 'free')}.`}
      submitLabel="Return to billing"
      submitIcon={<Undo2 aria-hidden="true" />}
    />
  );
}
