import { Search, Trash2 } from 'lucide-react';
import type { TAdminUser } from '@shared/schemas/admin';
import { Button } from '@web/components/ui/button';
import { Checkbox } from '@web/components/ui/checkbox';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';

interface UsersToolbarProps {
  search: string;
  onSearchChange: (search: string) => void;
  /** How many users are shown, or that the search is under way. */
  countLine: string;
  isAllSelected: boolean;
  canSelect: boolean;
  onSelectAll: (isSelected: boolean) => void;
  selectedUsers: TAdminUser[];
  onDeleteSelected: () => void;
}

/** Above the users: the search with its count, 'Select All Users' and 'Delete Selected'. */
export function UsersToolbar({
  search,
  onSearchChange,
  countLine,
  isAllSelected,
  canSelect,
  onSelectAll,
  selectedUsers,
  onDeleteSelected,
}: UsersToolbarProps) {
  return (
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
            onChange={(event) => onSearchChange(event.target.value)}
            placeholder="Name or email"
            className="pl-11"
            aria-describedby="admin-user-count"
          />
        </div>
        <p id="admin-user-count" className="text-base text-muted-foreground" aria-live="polite">
          {countLine}
        </p>
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <label className="flex min-h-12 cursor-pointer items-center gap-3 font-semibold">
          <Checkbox
            checked={isAllSelected}
            onCheckedChange={(value) => onSelectAll(value === true)}
            disabled={!canSelect}
          />
          Select All Users
        </label>
        <Button
          variant="destructive"
          disabled={selectedUsers.length === 0}
          onClick={onDeleteSelected}
        >
          <Trash2 aria-hidden="true" />
          Delete Selected ({selectedUsers.length})
        </Button>
      </div>
    </div>
  );
}
