import { useId, useState, type FormEvent } from 'react';
import { TIERS, type TTier } from '@shared/domain/enums';
import { ADMIN_MESSAGES, type TAdminUser } from '@shared/schemas/admin';
import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { Label } from '@web/components/ui/label';
import { toast } from '@web/components/ui/use-toast';
import { describeError } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { overrideUserTier } from '../admin-api';
import { describeTier, describeUser, formatDateTime } from '../admin-format';
import { ReasonField } from './reason-field';

export const OVERRIDE_TOASTS = {
  success: 'User tier has been updated successfully',
  error: 'Error updating user tier',
} as const;

const selectClass =
  'min-h-12 w-full rounded-lg border-2 border-input bg-card px-3 text-lg text-foreground';

interface OverrideTierDialogProps {
  user: TAdminUser | null;
  /** Names of admins by id, for 'changed by'. */
  describeAdmin: (id: number | null) => string;
  onOpenChange: (open: boolean) => void;
  onSaved: (user: TAdminUser) => void;
}

/** 'Override User Tier': tier, VIP or Regular, and a reason, all required. */
export function OverrideTierDialog({ user, ...props }: OverrideTierDialogProps) {
  return (
    <Dialog open={user !== null} onOpenChange={props.onOpenChange}>
      <DialogContent>
        {user && <OverrideTierForm key={user.id} user={user} {...props} />}
      </DialogContent>
    </Dialog>
  );
}

function LastChange({ label, by, at }: { label: string; by: string; at: string | null }) {
  if (!at) return null;
  return (
    <p>
      {label} last changed by <span className="font-semibold">{by}</span> on {formatDateTime(at)}.
    </p>
  );
}

/** Who last changed the plan and the VIP status, when, and the reason given. */
function OverrideHistory({
  user,
  describeAdmin,
}: Pick<OverrideTierDialogProps, 'describeAdmin'> & { user: TAdminUser }) {
  if (!user.tierOverriddenAt && !user.vipOverriddenAt) return null;
  return (
    <div className="flex flex-col gap-1 rounded-lg bg-muted p-4 text-base">
      <LastChange
        label="Plan"
        by={describeAdmin(user.tierOverriddenBy)}
        at={user.tierOverriddenAt}
      />
      {user.tierOverrideReason && (
        <p>
          Reason given: <q>{user.tierOverrideReason}</q>
        </p>
      )}
      <LastChange
        label="VIP status"
        by={describeAdmin(user.vipOverriddenBy)}
        at={user.vipOverriddenAt}
      />
    </div>
  );
}

function TierSelect({
  value,
  onChange,
}: {
  value: TTier | '';
  onChange: (value: TTier | '') => void;
}) {
  const tierId = useId();
  return (
    <div className="flex flex-col gap-2">
      <div className="leading-snug">
        <Label htmlFor={tierId} className="inline">
          Tier
        </Label>
        <span aria-hidden="true" className="ml-1 font-semibold text-destructive">
          *
        </span>
      </div>
      <select
        id={tierId}
        className={selectClass}
        value={value}
        onChange={(event) => onChange(event.target.value as TTier | '')}
        aria-required
      >
        <option value="">Choose a tier</option>
        {TIERS.map((choice) => (
          <option key={choice} value={choice}>
            {describeTier(choice)}
          </option>
        ))}
      </select>
    </div>
  );
}

type TVipChoice = 'vip' | 'regular' | '';

function VipChoice({
  value,
  onChange,
}: {
  value: TVipChoice;
  onChange: (value: TVipChoice) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 font-semibold">
        VIP status
        <span aria-hidden="true" className="ml-1 text-destructive">
          *
        </span>
      </legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {(
          [
            ['vip', 'VIP', 'Full access, no limits'],
            ['regular', 'Regular', 'The limits of the plan'],
          ] as const
        ).map(([option, label, hint]) => (
          <label
            key={option}
            className={cn(
              'flex min-h-14 cursor-pointer items-start gap-3 rounded-xl border-2 p-3',
              'has-[:focus-visible]:ring-4 has-[:focus-visible]:ring-ring/40',
              value === option ? 'border-primary bg-primary/5' : 'border-border',
            )}
          >
            <input
              type="radio"
              name="vip"
              value={option}
              checked={value === option}
              onChange={() => onChange(option)}
              className="mt-1 size-5 shrink-0 accent-[var(--color-primary)]"
            />
            <span className="flex flex-col">
              <span className="font-semibold">{label}</span>
              <span className="text-base text-muted-foreground">{hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function OverrideTierForm({
  user,
  describeAdmin,
  onOpenChange,
  onSaved,
}: { user: TAdminUser } & Omit<OverrideTierDialogProps, 'user'>) {
  const missingId = useId();
  const [tier, setTier] = useState<TTier | ''>(user.subscriptionTier);
  const [vip, setVip] = useState<TVipChoice>(user.isVIP ? 'vip' : 'regular');
  const [reason, setReason] = useState('');
  const [isSaving, setIsSaving] = useState(false);
  const isComplete = tier !== '' && vip !== '' && reason.trim() !== '';

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!isComplete) return;
    setIsSaving(true);
    try {
      const saved = await overrideUserTier(user.id, { tier, isVIP: vip === 'vip', reason });
      toast({ variant: 'success', title: OVERRIDE_TOASTS.success });
      onSaved(saved);
    } catch (error) {
      toast({
        variant: 'destructive',
        title: OVERRIDE_TOASTS.error,
        description: describeError(error, 'Failed to update user tier'),
      });
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Override User Tier</DialogTitle>
        <DialogDescription>
          Set the plan and VIP status of <span className="font-semibold">{describeUser(user)}</span>
          . VIP gives full access whatever the plan. A plan set here holds the account whatever its
          billing says. The change and your reason are written to the audit log.
        </DialogDescription>
      </DialogHeader>
      <OverrideHistory user={user} describeAdmin={describeAdmin} />
      <form noValidate onSubmit={save} className="flex flex-col gap-5">
        <TierSelect value={tier} onChange={setTier} />
        <VipChoice value={vip} onChange={setVip} />
        <ReasonField
          hint="For example: care home trial agreed with the manager"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
        {!isComplete && (
          <p id={missingId} className="text-base font-semibold text-warm-foreground">
            {ADMIN_MESSAGES.fillAllFields}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            type="submit"
            disabled={!isComplete || isSaving}
            aria-describedby={isComplete ? undefined : missingId}
          >
            {isSaving ? 'Saving...' : 'Save Changes'}
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}
