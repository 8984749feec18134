import { useState } from 'react';
import type { TAdminUser, TDeleteUsersResult } from '@shared/schemas/admin';
import { AdminRightsDialog } from './admin-rights-dialog';
import { DeleteUsersDialog } from './delete-users-dialog';
import { OverrideTierDialog } from './override-tier-dialog';
import { ResetPasswordDialog } from './reset-password-dialog';
import { ReturnToBillingDialog } from './return-to-billing-dialog';

/** Which of the users tab's dialogs is open, and for whom. */
export function useUserDialogs() {
  const [resetting, setResetting] = useState<TAdminUser | null>(null);
  const [overriding, setOverriding] = useState<TAdminUser | null>(null);
  const [returning, setReturning] = useState<TAdminUser | null>(null);
  const [changingAdmin, setChangingAdmin] = useState<TAdminUser | null>(null);
  const [deleting, setDeleting] = useState<TAdminUser[]>([]);
  return {
    ...{ resetting, setResetting, overriding, setOverriding, returning, setReturning },
    ...{ changingAdmin, setChangingAdmin, deleting, setDeleting },
  };
}

interface UserDialogsProps {
  dialogs: ReturnType<typeof useUserDialogs>;
  currentUserId: number;
  describeAdmin: (id: number | null) => string;
  /** A user's plan or billing changed: the lists are asked again. */
  onChanged: () => void;
  onAdminChanged: (saved: TAdminUser) => void;
  onDeleted: (result: TDeleteUsersResult) => void;
}

/** A user's password reset, plan, return to billing, admin rights and deletion. */
export function UserDialogs({
  dialogs,
  currentUserId,
  describeAdmin,
  onChanged,
  onAdminChanged,
  onDeleted,
}: UserDialogsProps) {
  const { resetting, setResetting, overriding, setOverriding, returning, setReturning } = dialogs;
  const { changingAdmin, setChangingAdmin, deleting, setDeleting } = dialogs;
  return (
    <>
      <ResetPasswordDialog user={resetting} onOpenChange={() => setResetting(null)} />
      <OverrideTierDialog
        user={overriding}
        describeAdmin={describeAdmin}
        onOpenChange={() => setOverriding(null)}
        onSaved={() => {
          setOverriding(null);
          onChanged();
        }}
      />
      <ReturnToBillingDialog
        user={returning}
        onOpenChange={() => setReturning(null)}
        onReturned={() => {
          setReturning(null);
          onChanged();
        }}
      />
      <AdminRightsDialog
        user={changingAdmin}
        isSelf={changingAdmin?.id === currentUserId}
        onOpenChange={() => setChangingAdmin(null)}
        onChanged={(saved) => {
          setChangingAdmin(null);
          onAdminChanged(saved);
        }}
      />
      <DeleteUsersDialog
        users={deleting}
        onOpenChange={() => setDeleting([])}
        onDeleted={(result) => {
          setDeleting([]);
          onDeleted(result);
        }}
      />
    </>
  );
}
