import { useEffect, useMemo, useState, type ComponentProps } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert } from 'lucide-react';
import type { TAdminPrimaryUser, TAdminUser, TDeleteUsersResult } from '@shared/schemas/admin';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
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
import { ShowMoreButton } from './show-more-button';
import { UserDialogs, useUserDialogs } from './user-dialogs';
import { UsersToolbar } from './users-toolbar';
import { findParent, UserCard } from './user-card';

/** The search asks the server, so it waits for a pause in typing. */
const SEARCH_DELAY_MS = 300;

/** The delete control shows for users who are not admins, or for oneself. */
function canDeleteUser(user: TAdminUser, currentUserId: number): boolean {
  return !user.isAdmin || user.id === currentUserId;
}

/** The users ticked for deletion, kept by id so a choice survives a new search. */
function useUserSelection(visible: TAdminUser[], currentUserId: number) {
  // Kept by id with the user, so a choice survives a new search that no longer shows them.
  const [selected, setSelected] = useState<Map<number, TAdminUser>>(new Map());
  // Bulk deletion never includes oneself: that stays a deliberate press on one's own card.
  const selectable = visible.filter(
    (user) => user.id !== currentUserId && canDeleteUser(user, currentUserId),
  );
  const selectedUsers = useMemo(() => {
    const shown = new Map(visible.map((user) => [user.id, user]));
    return [...selected.values()].map((user) => shown.get(user.id) ?? user);
  }, [selected, visible]);
  return {
    selected,
    selectable,
    selectedUsers,
    isAllSelected: selectable.length > 0 && selectable.every((user) => selected.has(user.id)),
    setSelectedFor: (user: TAdminUser, isSelected: boolean) =>
      setSelected((current) => {
        const next = new Map(current);
        if (isSelected) next.set(user.id, user);
        else next.delete(user.id);
        return next;
      }),
    selectAll: (isSelected: boolean) =>
      setSelected(new Map(isSelected ? selectable.map((user) => [user.id, user]) : [])),
    clear: () => setSelected(new Map()),
  };
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

type TCardActions = Pick<
  ComponentProps<typeof UserCard>,
  'onResetPassword' | 'onManageTier' | 'onReturnToBilling' | 'onToggleAdmin' | 'onDelete'
>;

interface UsersListProps {
  users: ReturnType<typeof useAdminUsers>;
  query: string;
  /** A search typed whose answer has not come: the cards shown are about to be replaced. */
  isSettling: boolean;
  primaryUsers: Map<number, TAdminPrimaryUser> | undefined;
  currentUserId: number;
  selection: ReturnType<typeof useUserSelection>;
  cardActions: (user: TAdminUser) => TCardActions;
}

/** A card for each user found, or that none matches, and 'Show more' while there are more. */
function UsersList({
  users,
  query,
  isSettling,
  primaryUsers,
  currentUserId,
  selection,
  cardActions,
}: UsersListProps) {
  const visible = users.data ?? [];
  return (
    <>
      {visible.length === 0 ? (
        <p className="rounded-xl border border-border bg-card p-6 text-lg shadow-soft">
          No user matches &lsquo;{query}&rsquo;.
        </p>
      ) : (
        <ul
          aria-label="Users"
          aria-busy={isSettling}
          // Cards about to be replaced take no clicks: one would move under the finger as the
          // answer arrives, and the tap land on another user's card or on nothing.
          inert={isSettling}
          className="grid gap-4 lg:grid-cols-2"
        >
          {visible.map((user) => (
            <UserCard
              key={user.id}
              user={user}
              parent={primaryUsers ? findParent(user, primaryUsers) : undefined}
              isSelf={user.id === currentUserId}
              canDelete={canDeleteUser(user, currentUserId)}
              isSelectable={user.id !== currentUserId && canDeleteUser(user, currentUserId)}
              isSelected={selection.selected.has(user.id)}
              onSelectedChange={(isSelected) => selection.setSelectedFor(user, isSelected)}
              {...cardActions(user)}
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
    </>
  );
}

function UsersLoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Alert
      variant="destructive"
      title={`Error loading users: ${message}`}
      icon={<CircleAlert aria-hidden="true" />}
    >
      <div>
        <Button variant="outline" onClick={onRetry}>
          Try Again
        </Button>
      </div>
    </Alert>
  );
}

export function UsersTab() {
  const queryClient = useQueryClient();
  const { user: currentUser, signOutLocally } = useAuth();
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const users = useAdminUsers(query);
  const primaryUsers = useAdminPrimaryUsers();
  const dialogs = useUserDialogs();
  const { setResetting, setOverriding, setReturning, setChangingAdmin, setDeleting } = dialogs;

  const currentUserId = currentUser?.id ?? 0;
  const isSettling = users.isPlaceholderData || search.trim() !== query;
  const visible = useMemo(() => users.data ?? [], [users.data]);
  const selection = useUserSelection(visible, currentUserId);

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

  function onDeleted(result: TDeleteUsersResult) {
    selection.clear();
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
    if (saved.id === currentUserId) {
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    }
    void refresh();
  }

  /** What each card's buttons open. */
  const cardActions = (user: TAdminUser): TCardActions => ({
    onResetPassword: () => setResetting(user),
    onManageTier: () => setOverriding(user),
    onReturnToBilling: () => setReturning(user),
    onToggleAdmin: () => setChangingAdmin(user),
    onDelete: () => setDeleting([user]),
  });

  if (users.isPending) return <PageSpinner label="Loading users" />;
  if (users.isError && !users.isFetchNextPageError) {
    return <UsersLoadError message={users.error.message} onRetry={() => void users.refetch()} />;
  }

  return (
    <TooltipProvider delayDuration={200}>
      <UsersToolbar
        search={search}
        onSearchChange={setSearch}
        countLine={
          isSettling ? 'Searching...' : describeCount(visible.length, query, users.hasNextPage)
        }
        isAllSelected={selection.isAllSelected}
        canSelect={selection.selectable.length > 0}
        onSelectAll={selection.selectAll}
        selectedUsers={selection.selectedUsers}
        onDeleteSelected={() => setDeleting(selection.selectedUsers)}
      />

      <UsersList
        users={users}
        query={query}
        isSettling={isSettling}
        primaryUsers={primaryUsers.data}
        currentUserId={currentUserId}
        selection={selection}
        cardActions={cardActions}
      />

      <UserDialogs
        dialogs={dialogs}
        currentUserId={currentUserId}
        describeAdmin={describeAdmin}
        onChanged={() => void refresh()}
        onAdminChanged={onAdminChanged}
        onDeleted={onDeleted}
      />
    </TooltipProvider>
  );
}
