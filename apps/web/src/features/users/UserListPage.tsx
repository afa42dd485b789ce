import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Role, User } from '@tonearm/contract';
import { useMemo, useState } from 'react';
import { Navigate } from 'react-router';
import { describeError } from '../../lib/api-client.js';
import { Paths } from '../../lib/paths.js';
import { describePremium } from '../../lib/premium.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useDebouncedValue } from '../../lib/useDebouncedValue.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { isAdmin, useCurrentUser } from '../../shell/auth/useAuth.js';
import { useConfirm } from '../../shell/confirm/useConfirm.js';
import { Avatar } from '../../ui/Avatar.js';
import { CrownIcon, PlusIcon, SearchIcon, SortIcon, TrashIcon } from '../../ui/icons.js';
import { LoadMore } from '../../ui/LoadMore.js';
import { useOffsetWithin } from '../../ui/useOffsetWithin.js';
import { useScrollContainer } from '../../ui/useScrollContainer.js';
import { AddUserDialog } from './AddUserDialog.js';
import { useDeleteUser, useUpdateUser } from './mutations.js';
import { userQueries, type UserListParams, type UserSortField } from './queries.js';
import '../../ui/badge.css';
import '../../ui/buttons.css';
import '../../ui/empty-state.css';
import '../../ui/forms.css';
import '../../ui/page.css';
import '../../ui/search-field.css';
import '../../ui/table.css';
import './UserListPage.css';

interface Column {
  field: UserSortField;
  label: string;
}

const COLUMNS: Column[] = [
  { field: 'username', label: 'User' },
  { field: 'email', label: 'Email' },
  { field: 'role', label: 'Role' },
  { field: 'premiumUntil', label: 'Plan' },
];

type Sort = Pick<UserListParams, 'sort' | 'order'>;

/** A user row's height before it is measured (a card on phones is taller: each row is measured as it renders). */
const USER_ROW_HEIGHT = 61;

function SortHeader({ column, sort, onSort }: { column: Column; sort: Sort; onSort: (next: Sort) => void }) {
  const active = sort.sort === column.field;
  const ariaSort = active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={ariaSort}>
      <button
        type="button"
        className="sort-button"
        data-active={active}
        onClick={() => {
          onSort({ sort: column.field, order: active && sort.order === 'asc' ? 'desc' : 'asc' });
        }}
      >
        {column.label}
        <SortIcon size={14} />
      </button>
    </th>
  );
}

interface UserRowProps {
  account: User;
  me: User;
  /** The row's place in the virtualised table: measured through `measure`, announced as aria-rowindex. */
  index: number;
  measure: (row: HTMLTableRowElement | null) => void;
}

function UserRow({ account, me, index, measure }: UserRowProps) {
  const update = useUpdateUser();
  const remove = useDeleteUser();
  const alerts = useAlerts();
  const confirm = useConfirm();
  const self = account.id === me.id;
  const busy = update.isPending || remove.isPending;

  const change = (changes: { role?: Role; premium?: boolean }, success: string): void => {
    update.mutate(
      { userId: account.id, changes },
      {
        onSuccess: () => {
          alerts.success(success);
        },
        onError: (error) => {
          alerts.error(UiMessages.failedToUpdateUser, describeError(error));
        },
      },
    );
  };

  return (
    // The header row is row 1.
    <tr ref={measure} data-index={index} aria-rowindex={index + 2} aria-label={account.username}>
      <th scope="row">
        <span className="table__user">
          <Avatar user={account} size="sm" />
          <span>
            {account.username}
            {self && <span className="muted"> (you)</span>}
          </span>
        </span>
      </th>
      <td>{account.email}</td>
      <td>
        <select
          className="input select select--compact"
          aria-label={`Role of ${account.username}`}
          value={account.role}
          disabled={busy || self}
          title={self ? 'Your own role is changed by another administrator' : undefined}
          onChange={(event) => {
            const role = event.target.value === 'ADMIN' ? 'ADMIN' : 'USER';
            change({ role }, UiMessages.roleChanged(account.username, role));
          }}
        >
          <option value="USER">User</option>
          <option value="ADMIN">Admin</option>
        </select>
      </td>
      <td>
        {/* An administrator has every premium feature already: no "Free", and nothing to grant (issue 26). */}
        {account.role === 'ADMIN' && !account.premium ? (
          <span className="badge badge--accent">Included as admin</span>
        ) : (
          <span className={account.premium ? 'badge badge--accent' : 'badge'}>{describePremium(account)}</span>
        )}
      </td>
      <td className="table__actions">
        {account.premium ? (
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={busy}
            aria-label={`Revoke premium from ${account.username}`}
            onClick={() => {
              change({ premium: false }, UiMessages.premiumRevoked(account.username));
            }}
          >
            Revoke premium
          </button>
        ) : account.role === 'ADMIN' ? null : (
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={busy}
            aria-label={`Grant premium to ${account.username}`}
            onClick={() => {
              change({ premium: true }, UiMessages.premiumGranted(account.username));
            }}
          >
            <CrownIcon size={16} /> Grant premium
          </button>
        )}
        {!self && (
          <button
            type="button"
            className="icon-button icon-button--danger"
            disabled={busy}
            aria-label={`Delete ${account.username}`}
            onClick={() => {
              confirm({
                message: UiMessages.confirmDeleteUser(account.username),
                onConfirm: () => {
                  remove.mutate(
                    { userId: account.id },
                    {
                      onSuccess: () => {
                        alerts.success(UiMessages.userDeleted(account.username));
                      },
                      onError: (error) => {
                        alerts.error(UiMessages.failedToDeleteUser, describeError(error));
                      },
                    },
                  );
                },
              });
            }}
          >
            <TrashIcon size={18} />
          </button>
        )}
      </td>
    </tr>
  );
}

/**
 * The loaded users' rows, virtualised: only the rows in view (plus a margin) are in the DOM, between two spacer rows
 * that keep the table as tall as every loaded row, so thousands of accounts scroll smoothly.
 */
function UserRows({ accounts, me }: { accounts: readonly User[]; me: User }) {
  const scrollElement = useScrollContainer();
  const [body, setBody] = useState<HTMLTableSectionElement | null>(null);
  const scrollMargin = useOffsetWithin(body, scrollElement);
  // The compiler cannot memoise around TanStack Virtual; this component re-renders on scroll by design.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: accounts.length,
    getScrollElement: () => scrollElement,
    estimateSize: () => USER_ROW_HEIGHT,
    overscan: 10,
    scrollMargin,
    initialRect: { width: 960, height: 900 },
    getItemKey: (index) => accounts[index]?.id ?? index,
    // A row not laid out (no height) keeps the estimate.
    measureElement: (row) => row.getBoundingClientRect().height || USER_ROW_HEIGHT,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items.at(-1);
  const before = first === undefined ? 0 : first.start - scrollMargin;
  const after = last === undefined ? 0 : virtualizer.getTotalSize() - (last.end - scrollMargin);
  return (
    <tbody ref={setBody}>
      {before > 0 && <tr aria-hidden="true" className="table__spacer" style={{ height: before }} />}
      {items.map((item) => {
        const account = accounts[item.index];
        if (!account) return null;
        return (
          <UserRow key={item.key} account={account} me={me} index={item.index} measure={virtualizer.measureElement} />
        );
      })}
      {after > 0 && <tr aria-hidden="true" className="table__spacer" style={{ height: after }} />}
    </tbody>
  );
}

function UserTable({ me }: { me: User }) {
  const [text, setText] = useState('');
  const [sort, setSort] = useState<Sort>({ sort: 'username', order: 'asc' });
  const q = useDebouncedValue(text.trim());
  // A new search or sort starts again at its first page: the key changes, and the previous list stays up meanwhile.
  const users = useInfiniteQuery(userQueries.list({ q, ...sort }));
  const { data, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = users;
  const accounts = useMemo(() => data?.pages.flatMap((page) => page.users) ?? [], [data]);
  const total = data?.pages[0]?.total ?? 0;

  return (
    <>
      <div className="toolbar">
        <label className="search-field">
          <SearchIcon size={20} />
          <span className="visually-hidden">Search users</span>
          <input
            type="search"
            className="search-field__input"
            placeholder="Search by name or email"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
            }}
          />
        </label>
        {/* Where cards replace the table (and its sortable headers), the same sorts as a select. */}
        <select
          className="input select user-list__sort"
          aria-label="Sort users"
          value={`${sort.sort}:${sort.order}`}
          onChange={(event) => {
            const [field, order] = event.target.value.split(':');
            const column = COLUMNS.find((known) => known.field === field);
            if (column !== undefined) setSort({ sort: column.field, order: order === 'desc' ? 'desc' : 'asc' });
          }}
        >
          {COLUMNS.flatMap((column) => [
            <option key={`${column.field}:asc`} value={`${column.field}:asc`}>
              {column.label}, A to Z
            </option>,
            <option key={`${column.field}:desc`} value={`${column.field}:desc`}>
              {column.label}, Z to A
            </option>,
          ])}
        </select>
      </div>
      {users.isPending && <p className="muted">Loading users…</p>}
      {users.isError && !data && <p className="empty-state">{UiMessages.failedToLoadUsers}</p>}
      {data && (
        <>
          <div className="table-wrap" aria-busy={users.isFetching}>
            <table className="table table--users" aria-rowcount={total + 1}>
              <caption className="visually-hidden">Users ({total})</caption>
              <thead>
                <tr>
                  {COLUMNS.map((column) => (
                    <SortHeader key={column.field} column={column} sort={sort} onSort={setSort} />
                  ))}
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <UserRows accounts={accounts} me={me} />
            </table>
            {accounts.length === 0 && <p className="table__empty">No users match “{q}”.</p>}
          </div>
          <p className="user-list__summary" aria-live="polite">
            {accounts.length} of {total} {total === 1 ? 'user' : 'users'}
          </p>
          {hasNextPage && (
            <LoadMore
              label="Load more users"
              auto
              loading={isFetchingNextPage}
              failed={isFetchNextPageError}
              onLoad={() => void fetchNextPage()}
            />
          )}
        </>
      )}
    </>
  );
}

/**
 * `/dashboard/user-list`: administrators search, sort and page through every account (more load as the list scrolls)
 * and manage it.
 */
export function UserListPage() {
  const user = useCurrentUser();
  const [adding, setAdding] = useState(false);
  // Others are sent home: the navigation never offers this page to them.
  if (!isAdmin(user)) return <Navigate to={Paths.dashboard} replace />;
  return (
    <div className="page">
      <header className="page-header">
        <div className="page-header__text">
          <p className="eyebrow">Administration</p>
          <h1 className="page-title">Users</h1>
        </div>
        <div className="page-header__actions">
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              setAdding(true);
            }}
          >
            <PlusIcon size={18} /> Add user
          </button>
        </div>
      </header>
      {adding && (
        <AddUserDialog
          onClose={() => {
            setAdding(false);
          }}
        />
      )}
      <UserTable me={user} />
    </div>
  );
}
