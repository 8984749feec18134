import { useState, type ComponentProps } from 'react';
import type { TAdminUser } from '@shared/schemas/admin';
import { PendingSafeDialog } from '@web/components/pending-safe-dialog';
import { toast } from '@web/components/ui/use-toast';
import { describeError } from '@web/lib/api-client';

type DialogText = Pick<
  ComponentProps<typeof PendingSafeDialog>,
  'title' | 'description' | 'submitLabel' | 'submitIcon' | 'submitVariant'
>;

interface UserActionDialogProps extends DialogText {
  user: TAdminUser | null;
  onOpenChange: (open: boolean) => void;
  /** The request; it answers with the account as it now is. */
  run: (user: TAdminUser) => Promise<TAdminUser>;
  onDone: (user: TAdminUser) => void;
  success: (saved: TAdminUser) => { title: string; description?: string };
  failure: { title: string; fallback: string };
}

/** An admin's one-click change to an account: confirm, send, then a toast either way. */
export function UserActionDialog({
  user,
  onOpenChange,
  run,
  onDone,
  success,
  failure,
  ...text
}: UserActionDialogProps) {
  const [isSaving, setIsSaving] = useState(false);

  async function confirm() {
    if (!user) return;
    setIsSaving(true);
    try {
      const saved = await run(user);
      toast({ variant: 'success', ...success(saved) });
      onDone(saved);
    } catch (error) {
      toast({
        variant: 'destructive',
        title: failure.title,
        description: describeError(error, failure.fallback),
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
      onSubmit={() => void confirm()}
      pendingLabel="Saving..."
      {...text}
    />
  );
}
