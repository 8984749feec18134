import { useState } from 'react';
import { Trash2, Users } from 'lucide-react';
import { ADMIN_MESSAGES, type TAdminUser, type TDeleteUsersResult } from '@shared/schemas/admin';
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
import { describeError, isApiError } from '@web/lib/api-client';
import { deleteUsers } from '../admin-api';
import { describeUser, fullName, isRecipientAccount } from '../admin-format';

export const DELETE_TOASTS = {
  refused: 'Cannot Delete User',
  fallback: 'Failed to delete users',
  /** The refusal stays this long, as the product asks. */
  refusedMs: 5000,
} as const;

interface DeleteUsersDialogProps {
  users: TAdminUser[];
  onOpenChange: (open: boolean) => void;
  onDeleted: (result: TDeleteUsersResult) => void;
}

/**
 * A confirmation first; then a user with recipients is refused, naming them, and the admin may
 * confirm deleting the user together with their recipients: nothing goes unseen.
 */
export function DeleteUsersDialog({ users, onOpenChange, onDeleted }: DeleteUsersDialogProps) {
  const [dependents, setDependents] = useState<string | null>(null);
  const [isDeleting, setIsDeleting] = useState(false);
  const isOpen = users.length > 0;
  const isSingle = users.length === 1;

  function changeOpen(next: boolean) {
    if (isDeleting) return;
    onOpenChange(next);
    if (!next) setTimeout(() => setDependents(null), 300);
  }

  async function remove(includeRecipients: boolean) {
    setIsDeleting(true);
    try {
      const result = await deleteUsers(
        users.map((user) => user.id),
        includeRecipients,
      );
      setDependents(null);
      onDeleted(result);
    } catch (error) {
      if (isApiError(error, 'HAS_DEPENDENTS')) {
        toast({
          variant: 'destructive',
          title: DELETE_TOASTS.refused,
          description: error.message,
          duration: DELETE_TOASTS.refusedMs,
        });
        setDependents(error.message);
      } else {
        toast({
          variant: 'destructive',
          title: DELETE_TOASTS.fallback,
          description: describeError(error, DELETE_TOASTS.fallback),
        });
      }
    } finally {
      setIsDeleting(false);
    }
  }

  return (
    <Dialog open={isOpen} onOpenChange={changeOpen}>
      <DialogContent hideClose={isDeleting}>
        <DialogHeader>
          <DialogTitle>{isSingle ? 'Delete User' : `Delete ${users.length} Users`}</DialogTitle>
          <DialogDescription>
            {isSingle
              ? ADMIN_MESSAGES.confirmDeleteUser
              : `Are you sure you want to delete these ${users.length} users?`}{' '}
            Their account, sessions and device associations are removed. Their audit log entries are
            kept. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <ul className="flex flex-col gap-2" aria-label="Users to delete">
          {users.map((user) => (
            <li key={user.id} className="rounded-lg bg-muted p-3 text-base">
              <span className="font-semibold">{describeUser(user)}</span>
              {isRecipientAccount(user)
                ? ` · ${user.email}`
                : fullName(user) && ` · ${fullName(user)}`}
            </li>
          ))}
        </ul>
        {dependents && (
          <Alert
            variant="warm"
            title="They have recipients"
            icon={<Users aria-hidden="true" />}
            data-testid="delete-dependents"
          >
            <p>{dependents}</p>
            <p>Their recipients will no longer be able to sign in or watch any messages.</p>
          </Alert>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => changeOpen(false)} disabled={isDeleting}>
            Cancel
          </Button>
          {dependents ? (
            <Button variant="destructive" onClick={() => remove(true)} disabled={isDeleting}>
              <Trash2 aria-hidden="true" />
              {isDeleting ? 'Deleting...' : 'Delete user and their recipients'}
            </Button>
          ) : (
            <Button variant="destructive" onClick={() => remove(false)} disabled={isDeleting}>
              <Trash2 aria-hidden="true" />
              {isDeleting ? 'Deleting...' : 'Delete'}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
