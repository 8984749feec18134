import {
  KeyRound,
  ShieldCheck,
  ShieldOff,
  SlidersHorizontal,
  Trash2,
  Undo2,
  UserRound,
} from 'lucide-react';
import type { TAdminPrimaryUser, TAdminUser } from '@shared/schemas/admin';
import { Button } from '@web/components/ui/button';
import { Checkbox } from '@web/components/ui/checkbox';
import { Tooltip, TooltipContent, TooltipTrigger } from '@web/components/ui/tooltip';
import { cn } from '@web/lib/utils';
import {
  describeBilling,
  describeTier,
  describeUser,
  fullName,
  isRecipientAccount,
} from '../admin-format';

const badgeClass =
  'inline-flex items-center gap-1.5 rounded-full border px-3 py-0.5 text-base font-semibold';

/** Who a recipient belongs to, from the primary accounts keyed by id. */
export function findParent(
  user: TAdminUser,
  primaryUsers: Map<number, TAdminPrimaryUser>,
): TAdminPrimaryUser | undefined {
  if (!isRecipientAccount(user) || user.createdById === null) return undefined;
  return primaryUsers.get(user.createdById);
}

/** Badges: Admin (with tooltip), Primary, Recipient of {name}, tier if not free, VIP. */
function UserBadges({ user, parent }: { user: TAdminUser; parent?: TAdminPrimaryUser }) {
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Badges">
      {user.isAdmin && (
        <li>
          <Tooltip>
            <TooltipTrigger asChild>
              <button
                type="button"
                className={cn(
                  badgeClass,
                  'relative cursor-help border-primary bg-primary text-primary-foreground after:absolute after:-inset-2',
                )}
              >
                <ShieldCheck className="size-4" aria-hidden="true" />
                Admin
              </button>
            </TooltipTrigger>
            <TooltipContent>
              Can manage users, plans, devices and email on this installation
            </TooltipContent>
          </Tooltip>
        </li>
      )}
      {user.isPrimary && (
        <li className={cn(badgeClass, 'border-primary/40 bg-primary-soft text-primary')}>
          Primary
        </li>
      )}
      {parent && (
        <li className={cn(badgeClass, 'border-warm-foreground/30 bg-warm text-warm-foreground')}>
          Recipient of {fullName(parent)}
        </li>
      )}
      {user.subscriptionTier !== 'free' && (
        <li className={cn(badgeClass, 'border-border bg-secondary text-secondary-foreground')}>
          {describeTier(user.subscriptionTier)}
        </li>
      )}
      {user.isVIP && (
        <li className={cn(badgeClass, 'border-success/40 bg-success-soft text-success')}>VIP</li>
      )}
    </ul>
  );
}

/** The subscription beside the tier granted; an administrator's setting says that it wins. */
function BillingLine({
  user,
  onReturnToBilling,
}: {
  user: TAdminUser;
  onReturnToBilling: () => void;
}) {
  const billing = describeBilling(user);
  if (!billing && !user.isSetByAdministrator) return null;
  return (
    <div className="flex flex-col gap-1 text-base">
      {billing && (
        <p>
          <span className="text-muted-foreground">Billing: </span>
          <span className="font-semibold">{billing}</span>
        </p>
      )}
      {user.isSetByAdministrator && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <p className="font-semibold">Set by administrator (overrides billing)</p>
          {/* VIP holds the plan too; it is turned off in Manage Tier. */}
          {user.tierOverriddenBy !== null && !user.isVIP && (
            <Button
              variant="outline"
              onClick={onReturnToBilling}
              aria-label={`Return to billing: ${describeUser(user)}`}
            >
              <Undo2 aria-hidden="true" />
              Return to billing
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

interface UserCardProps {
  user: TAdminUser;
  parent?: TAdminPrimaryUser;
  isSelf: boolean;
  canDelete: boolean;
  isSelectable: boolean;
  isSelected: boolean;
  onSelectedChange: (selected: boolean) => void;
  onResetPassword: () => void;
  onManageTier: () => void;
  onReturnToBilling: () => void;
  onToggleAdmin: () => void;
  onDelete: () => void;
}

export function UserCard({
  user,
  parent,
  isSelf,
  canDelete,
  isSelectable,
  isSelected,
  onSelectedChange,
  onResetPassword,
  onManageTier,
  onReturnToBilling,
  onToggleAdmin,
  onDelete,
}: UserCardProps) {
  const name = fullName(user) || user.username;
  const headingId = `admin-user-${user.id}-name`;
  const isRecipient = isRecipientAccount(user);
  const label = describeUser(user);
  return (
    <li
      aria-labelledby={headingId}
      className={cn(
        'flex flex-col gap-4 rounded-xl border-2 bg-card p-5 shadow-sm',
        isSelected ? 'border-primary' : 'border-border',
      )}
    >
      <div className="flex items-start gap-3">
        {isSelectable ? (
          <Checkbox
            checked={isSelected}
            onCheckedChange={(value) => onSelectedChange(value === true)}
            aria-label={`Select ${label}`}
            className="-mt-1"
          />
        ) : (
          <UserRound className="mt-1 size-7 shrink-0 text-muted-foreground" aria-hidden="true" />
        )}
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h3 id={headingId} className="text-xl font-bold break-words">
            {label}
            {isSelf && <span className="font-normal text-muted-foreground"> (you)</span>}
          </h3>
          <p className="text-lg break-words">
            {isRecipient ? 'Recipient: signs in with email and access code' : name}
          </p>
          <p className="text-base break-all text-muted-foreground">{user.email}</p>
        </div>
      </div>
      <UserBadges user={user} parent={parent} />
      {!isRecipient && <BillingLine user={user} onReturnToBilling={onReturnToBilling} />}
      <div className="mt-auto flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        {/* Recipients sign in with a code; admins change their own password on the dashboard. */}
        {!isRecipient && !isSelf && (
          <Button
            variant="outline"
            onClick={onResetPassword}
            aria-label={`Reset Password for ${label}`}
          >
            <KeyRound aria-hidden="true" />
            Reset Password
          </Button>
        )}
        <Button variant="outline" onClick={onManageTier} aria-label={`Manage Tier for ${label}`}>
          <SlidersHorizontal aria-hidden="true" />
          Manage Tier
        </Button>
        {!isRecipient && (
          <Button
            variant="ghost"
            onClick={onToggleAdmin}
            aria-label={`${user.isAdmin ? 'Remove admin' : 'Make admin'}: ${label}`}
          >
            {user.isAdmin ? <ShieldOff aria-hidden="true" /> : <ShieldCheck aria-hidden="true" />}
            {user.isAdmin ? 'Remove admin' : 'Make admin'}
          </Button>
        )}
        {canDelete && (
          <Button variant="ghost-destructive" onClick={onDelete} aria-label={`Delete ${label}`}>
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        )}
      </div>
    </li>
  );
}
