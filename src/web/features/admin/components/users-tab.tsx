import { useEffect, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, Search, Trash2 } from 'lucide-react';
import type { TAdminUser, TDeleteUsersResult } from '@shared/schemas/admin';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Checkbox } from '@web/components/ui/checkbox';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { PageSpinner } from '@web/components/ui/spinner';
import { TooltipProvider } from '@web/components/ui/tooltip';
import { toast } from '@web/components/ui/use-toast';
import { useAuth } from '@web/lib/auth-provider';
import { USER_QUERY_KEY } from '@web/lib/auth-api';
import {
  ADMIN_DEVICES_QUERY_KEY,
  ADMIN_PRIMARY_USERS_QUERY_KEY,
  ADMIN_USERS_QUERY_KEY,
  useAdminPrimaryUsers,
  useAdminUsers,
} from '../admin-api';
import { AdminRightsDialog } from './admin-rights-dialog';
import { DeleteUsersDialog } from './delete-users-dialog';
import { OverrideTierDialog } from './override-tier-dialog';
import { ResetPasswordDialog } from './reset-password-dialog';
import { ReturnToBillingDialog } from './return-to-billing-dialog';
import { ShowMoreButton } from './show-more-button';
import { findParent, UserCard } from './user-card';

/** The search asks the server, so it waits for a pause in typing. */
const SEARCH_DELAY_MS = 300;

/** The delete control shows for users who are not admins, or for oneself. */
function canDeleteUser(user: TAdminUser, currentUserId: number): boolean {
  return !user.isAdmin || user.id === currentUserId;
}

function useDebouncedValue(value: string, delayMs: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

function describeCount(count: number, query: string, hasMore: boolean): string {
  const users = `user${count === 1 ? '' : 's'}`;
  if (hasMore) return `Showing the first ${count} ${users}${query ? ' that match' : ''}`;
  if (query) return `${count} ${users} match${count === 1 ? 'es' : ''}`;
  return `${count} ${users}`;
}

export function UsersTab() {
  const queryClient = useQueryClient();
  const { user: currentUser, signOutLocally } = useAuth();
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const users = useAdminUsers(query);
  const primaryUsers = useAdminPrimaryUsers();
  // Kept by id with the user, so a choice survives a new search that no longer shows them.
  const [selected, setSelected] = useState<Map<number, TAdminUser>>(new Map());
  const [resetting, setResetting] = useState<TAdminUser | null>(null);
  const [overriding, setOverriding] = useState<TAdminUser | null>(null);
  const [returning, setReturning] = useState<TAdminUser | null>(null);
  const [changingAdmin, setChangingAdmin] = useState<TAdminUser | null>(null);
  const [deleting, setDeleting] = useState<TAdminUser[]>([]);

  const currentUserId = currentUser?.id ?? 0;
  const visible = useMemo(() => users.data ?? [], [users.data]);
  // Bulk deletion never includes oneself: that stays a deliberate press on one's own card.
  const selectable = visible.filter(
    (user) => user.id !== currentUserId && canDeleteUser(user, currentUserId),
  );
  const selectedUsers = useMemo(() => {
    const shown = new Map(visible.map((user) => [user.id, user]));
    return [...selected.values()].map((user) => shown.get(user.id) ?? user);
  }, [selected, visible]);
  const isAllSelected = selectable.length > 0 && selectable.every((user) => selected.has(user.id));

  // Admins always have their own account, so the primary accounts name every admin.
  function describeAdmin(id: number | null): string {
    if (id === null) return 'an admin';
    return primaryUsers.data?.get(id)?.username ?? 'a former admin';
  }

  async function refresh() {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ADMIN_USERS_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: ADMIN_PRIMARY_USERS_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: ADMIN_DEVICES_QUERY_KEY }),
    ]);
  }

  function setSelectedFor(user: TAdminUser, isSelected: boolean) {
    setSelected((current) => {
      const next = new Map(current);
      if (isSelected) next.set(user.id, user);
      else next.delete(user.id);
      return next;
    });
  }

  function selectAll(isSelected: boolean) {
    setSelected(new Map(isSelected ? selectable.map((user) => [user.id, user]) : []));
  }

  function onDeleted(result: TDeleteUsersResult) {
    setDeleting([]);
    setSelected(new Map());
    const count = result.deletedIds.length;
    toast({
      variant: 'success',
      title: count === 1 ? 'User deleted' : `${count} users deleted`,
      description: result.message,
    });
    if (result.deletedIds.includes(currentUserId)) {
      signOutLocally();
      return;
    }
    void refresh();
  }

  function onAdminChanged(saved: TAdminUser) {
    setChangingAdmin(null);
    if (saved.id === currentUserId) {
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    }
    void refresh();
  }

  if (users.isPending) return <PageSpinner label="Loading users" />;
  if (users.isError && !users.isFetchNextPageError) {
    return (
      <Alert
        variant="destructive"
        title={`Error loading users: ${users.error.message}`}
        icon={<CircleAlert aria-hidden="true" />}
      >
        <div>
          <Button variant="outline" onClick={() => void users.refetch()}>
            Try Again
          </Button>
        </div>
      </Alert>
    );
  }

  return (
    <TooltipProvider delayDuration={200}>
      <div className="flex flex-col gap-4 rounded-xl border border-border bg-card p-4 shadow-soft sm:p-5">
        <div className="flex flex-col gap-2">
          <Label htmlFor="admin-user-search">Find a user</Label>
          <div className="relative">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              id="admin-user-search"
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="Name or email"
              className="pl-11"
              aria-describedby="admin-user-count"
            />
          </div>
          <p id="admin-user-count" className="text-base text-muted-foreground" aria-live="polite">
            {users.isPlaceholderData
              ? 'Searching...'
              : describeCount(visible.length, query, users.hasNextPage)}
          </p>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <label className="flex min-h-12 cursor-pointer items-center gap-3 font-semibold">
            <Checkbox
              checked={isAllSelected}
              onCheckedChange={(value) => selectAll(value === true)}
              disabled={selectable.length === 0}
            />
            Select All Users
          </label>
          <Button
            variant="destructive"
            disabled={selectedUsers.length === 0}
            onClick={() => setDeleting(selectedUsers)}
          >
            <Trash2 aria-hidden="true" />
            Delete Selected ({selectedUsers.length})
          </Button>
        </div>
      </div>

      {visible.length === 0 ? (
        <p className="rounded-xl border border-border bg-card p-6 text-lg shadow-soft">
          No user matches &lsquo;{query}&rsquo;.
        </p>
      ) : (
        <ul
          aria-label="Users"
          aria-busy={users.isPlaceholderData}
          className="grid gap-4 lg:grid-cols-2"
        >
          {visible.map((user) => (
            <UserCard
              key={user.id}
              user={user}
              parent={primaryUsers.data ? findParent(user, primaryUsers.data) : undefined}
              isSelf={user.id === currentUserId}
              canDelete={canDeleteUser(user, currentUserId)}
              isSelectable={user.id !== currentUserId && canDeleteUser(user, currentUserId)}
              isSelected={selected.has(user.id)}
              onSelectedChange={(isSelected) => setSelectedFor(user, isSelected)}
              onResetPassword={() => setResetting(user)}
              onManageTier={() => setOverriding(user)}
              onReturnToBilling={() => setReturning(user)}
              onToggleAdmin={() => setChangingAdmin(user)}
              onDelete={() => setDeleting([user])}
            />
          ))}
        </ul>
      )}
      {users.hasNextPage && (
        <ShowMoreButton
          what="users"
          isLoading={users.isFetchingNextPage}
          error={users.isFetchNextPageError ? users.error : null}
          onShowMore={() => void users.fetchNextPage()}
        />
      )}

      <ResetPasswordDialog user={resetting} onOpenChange={() => setResetting(null)} />
      <OverrideTierDialog
        user={overriding}
        describeAdmin={describeAdmin}
        onOpenChange={() => setOverriding(null)}
        onSaved={() => {
          setOverriding(null);
          void refresh();
        }}
      />
      <ReturnToBillingDialog
        user={returning}
        onOpenChange={() => setReturning(null)}
        onReturned={() => {
          setReturning(null);
          void refresh();
        }}
      />
      <AdminRightsDialog
        user={changingAdmin}
        isSelf={changingAdmin?.id === currentUserId}
        onOpenChange={() => setChangingAdmin(null)}
        onChanged={onAdminChanged}
      />
      <DeleteUsersDialog
        users={deleting}
        onOpenChange={() => setDeleting([])}
        onDeleted={onDeleted}
      />
    </TooltipProvider>
  );
}
