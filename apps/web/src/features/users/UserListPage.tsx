import { useQuery } from '@tanstack/react-query';
import type { User } from '@tonearm/contract';
import { useDeferredValue, useState } from 'react';
import { UiMessages } from '../../lib/ui-messages.js';
import { SearchIcon } from '../../ui/icons.js';
import { isAdmin, useCurrentUser } from '../auth/useAuth.js';
import { userQueries } from './queries.js';

function plan(user: User): string {
  if (!user.premium) return 'Free';
  return user.premiumUntil ? `Premium until ${new Date(user.premiumUntil).toLocaleDateString()}` : 'Premium';
}

function UserTable() {
  const [text, setText] = useState('');
  const q = useDeferredValue(text.trim());
  const users = useQuery(userQueries.list(q));
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
      </div>
      {users.isPending && <p className="muted">Loading users…</p>}
      {users.data && (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Users ({users.data.total})</caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Plan</th>
              </tr>
            </thead>
            <tbody>
              {users.data.users.map((user) => (
                <tr key={user.id}>
                  <th scope="row">
                    <span className="table__user">
                      <span className="avatar avatar--sm" aria-hidden="true">
                        {user.username.slice(0, 1).toUpperCase()}
                      </span>
                      {user.username}
                    </span>
                  </th>
                  <td>{user.email}</td>
                  <td>
                    <span className={user.role === 'ADMIN' ? 'badge badge--accent' : 'badge'}>
                      {user.role === 'ADMIN' ? 'Admin' : 'User'}
                    </span>
                  </td>
                  <td>{plan(user)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** `/dashboard/user-list`: administrators see every account. */
export function UserListPage() {
  const user = useCurrentUser();
  return (
    <div className="page">
      <header className="page-header">
        <div className="page-header__text">
          <p className="eyebrow">Administration</p>
          <h1 className="page-title">Users</h1>
        </div>
      </header>
      {isAdmin(user) ? <UserTable /> : <p className="empty-state">{UiMessages.adminOnly}</p>}
    </div>
  );
}
