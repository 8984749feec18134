import { ShieldCheck, ShieldOff } from 'lucide-react';
import type { TAdminUser } from '@shared/schemas/admin';
import { setUserAdmin } from '../admin-api';
import { UserActionDialog } from './user-action-dialog';

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
  const isGranting = user ? !user.isAdmin : true;
  return (
    <UserActionDialog
      user={user}
      onOpenChange={onOpenChange}
      run={(target) => setUserAdmin(target.id, isGranting)}
      onDone={onChanged}
      success={(saved) => ({
        title: isGranting
          ? `${saved.username} is now an admin`
          : `${saved.username} is no longer an admin`,
      })}
      failure={{ title: 'Error changing admin rights', fallback: 'Failed to change admin rights' }}
      title={isGranting ? 'Make admin?' : 'Remove admin?'}
      description={
        isGranting
          ? `${user?.username ?? ''} will be able to change plans, reset passwords and delete accounts of everyone on this installation. They set up two-step sign-in on their first visit to the admin dashboard.`
          : isSelf
            ? 'You will no longer be able to open the admin dashboard.'
            : `${user?.username ?? ''} will no longer be able to open the admin dashboard.`
      }
      submitLabel={isGranting ? 'Make admin' : 'Remove admin'}
      submitIcon={
        isGranting ? <ShieldCheck aria-hidden="true" /> : <ShieldOff aria-hidden="true" />
      }
      submitVariant={isGranting ? 'default' : 'destructive'}
    />
  );
}
