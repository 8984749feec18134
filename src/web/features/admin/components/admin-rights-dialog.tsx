import { useState } from 'react';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import type { TAdminUser } from '@shared/schemas/admin';
import { PendingSafeDialog } from '@web/components/pending-safe-dialog';
import { toast } from '@web/components/ui/use-toast';
import { describeError } from '@web/lib/api-client';
import { setUserAdmin } from '../admin-api';

interface AdminRightsDialogProps {
  user: TAdminUser | null;
  isSelf: boolean;
  onOpenChange: (open: boolean) => void;
  onChanged: (user: TAdminUser) => void;
}

/** Admins grant and revoke admin for others; the server keeps at least one admin. */
export function AdminRightsDialog({
  user,
  isSelf,
  onOpenChange,
  onChanged,
}: AdminRightsDialogProps) {
  const [isSaving, setIsSaving] = useState(false);
  const isGranting = user ? !user.isAdmin : true;

  async function save() {
    if (!user) return;
    setIsSaving(true);
    try {
      const saved = await setUserAdmin(user.id, isGranting);
      toast({
        variant: 'success',
        title: isGranting
          ? `${saved.username} is now an admin`
          : `${saved.username} is no longer an admin`,
      });
      onChanged(saved);
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Error changing admin rights',
        description: describeError(error, 'Failed to change admin rights'),
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
      title={isGranting ? 'Make admin?' : 'Remove admin?'}
      description={
        isGranting
          ? `${user?.username ?? ''} will be able to change plans, reset passwords and delete accounts of everyone on this installation. They set up two-step sign-in on their first visit to the admin dashboard.`
          : isSelf
            ? 'You will no longer be able to open the admin dashboard.'
            : `${user?.username ?? ''} will no longer be able to open the admin dashboard.`
      }
      onSubmit={() => void save()}
      submitLabel={isGranting ? 'Make admin' : 'Remove admin'}
      pendingLabel="Saving..."
      submitIcon={
        isGranting ? <ShieldCheck aria-hidden="true" /> : <ShieldOff aria-hidden="true" />
      }
      submitVariant={isGranting ? 'default' : 'destructive'}
    />
  );
}
