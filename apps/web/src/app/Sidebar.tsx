import { useQuery } from '@tanstack/react-query';
import type { User } from '@tonearm/contract';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, type Location } from 'react-router';
import { folderQueries } from '../features/folders/queries.js';
import { ProfileDialog } from '../features/profile/ProfileDialog.js';
import { artistFromState } from '../features/songs/song-filter.js';
import { Paths } from '../lib/paths.js';
import { isAdmin, useAuth } from '../shell/auth/useAuth.js';
import { Avatar } from '../ui/Avatar.js';
import {
  CloseIcon,
  CrownIcon,
  DownloadIcon,
  FolderIcon,
  HeartIcon,
  HomeIcon,
  LibraryIcon,
  LogoMark,
  LogoutIcon,
  MicIcon,
  PlaylistAddIcon,
  SearchIcon,
  UsersIcon,
} from '../ui/icons.js';
import { ChartIcon } from '../ui/discovery-icons.js';
import '../ui/brand.css';
import '../ui/buttons.css';
import './Sidebar.css';

interface NavItem {
  label: string;
  to: string;
  icon: ReactNode;
  isActive: (location: Location) => boolean;
}

const onSongs = (location: Location): boolean => location.pathname === Paths.songs;
/** An artist's song list (by navigation state, or at their own address) belongs to Artists in the navigation. */
const onArtistSongs = (location: Location): boolean =>
  (onSongs(location) && artistFromState(location.state) !== null) || location.pathname.startsWith(`${Paths.artist}/`);
const onSearch = (location: Location): boolean => location.pathname === Paths.search;
const likedOnly = (location: Location): boolean => new URLSearchParams(location.search).get('liked') === '1';
const at =
  (path: string) =>
  (location: Location): boolean =>
    location.pathname === path;

/** Search has its own page (issue 26); the song list route (SPEC §2) is Search's too, and Liked is a view of it. */
const MAIN_ITEMS: NavItem[] = [
  { label: 'Home', to: Paths.dashboard, icon: <HomeIcon />, isActive: at(Paths.dashboard) },
  {
    label: 'Search',
    to: Paths.search,
    icon: <SearchIcon />,
    isActive: (l) => (onSearch(l) || (onSongs(l) && !onArtistSongs(l))) && !likedOnly(l),
  },
  {
    label: 'Artists',
    to: Paths.artist,
    icon: <MicIcon />,
    isActive: (l) => at(Paths.artist)(l) || onArtistSongs(l),
  },
  { label: 'Playlists', to: Paths.playlist, icon: <LibraryIcon />, isActive: at(Paths.playlist) },
  {
    label: 'Liked',
    to: `${Paths.songs}?liked=1`,
    icon: <HeartIcon />,
    isActive: (l) => (onSongs(l) || onSearch(l)) && likedOnly(l),
  },
  { label: 'Downloaded', to: Paths.downloaded, icon: <DownloadIcon />, isActive: at(Paths.downloaded) },
];

/** Issue 25: every signed-in user, while they see at least one library. */
const FOLDERS_ITEM: NavItem = {
  label: 'Folders',
  to: Paths.folders,
  icon: <FolderIcon />,
  isActive: at(Paths.folders),
};

const ADMIN_ITEMS: NavItem[] = [
  { label: 'Users', to: Paths.userList, icon: <UsersIcon />, isActive: at(Paths.userList) },
  { label: 'Libraries', to: Paths.libraries, icon: <FolderIcon />, isActive: at(Paths.libraries) },
  { label: 'Server stats', to: Paths.serverStats, icon: <ChartIcon />, isActive: at(Paths.serverStats) },
];

const EXTRA_ITEMS: NavItem[] = [
  {
    label: 'Create playlist',
    to: Paths.createPlaylist,
    icon: <PlaylistAddIcon />,
    isActive: at(Paths.createPlaylist),
  },
  { label: 'Premium', to: Paths.payment, icon: <CrownIcon />, isActive: at(Paths.payment) },
  // Issue 28: the listener's own numbers.
  { label: 'Your stats', to: Paths.stats, icon: <ChartIcon />, isActive: at(Paths.stats) },
];

function NavList({ items, label }: { items: NavItem[]; label?: string }) {
  const location = useLocation();
  return (
    <ul className="nav-list" aria-label={label}>
      {items.map((item) => {
        const active = item.isActive(location);
        return (
          <li key={item.label}>
            <Link to={item.to} className="nav-link" aria-current={active ? 'page' : undefined}>
              {item.icon}
              <span>{item.label}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function planLabel(user: User): string {
  if (user.role === 'ADMIN') return 'Administrator';
  return user.premium ? 'Premium' : 'Free plan';
}

/** The signed-in user: opens the profile, and logs out. */
function UserCard({ user, onLogout }: { user: User; onLogout: () => void }) {
  const [profileOpen, setProfileOpen] = useState(false);
  return (
    <div className="user-card">
      <button
        type="button"
        className="user-card__profile"
        aria-label="Profile"
        aria-haspopup="dialog"
        onClick={() => {
          setProfileOpen(true);
        }}
      >
        <Avatar user={user} />
        <span className="user-card__text">
          <span className="user-card__name">{user.username}</span>
          <span className="user-card__plan">{planLabel(user)}</span>
        </span>
      </button>
      <button type="button" className="icon-button" aria-label="Log out" onClick={onLogout}>
        <LogoutIcon size={20} />
      </button>
      {profileOpen && (
        <ProfileDialog
          onClose={() => {
            setProfileOpen(false);
          }}
        />
      )}
    </div>
  );
}

export interface SidebarProps {
  id: string;
  open: boolean;
  onClose: () => void;
}

/** Desktop: a fixed column. Narrow screens: a drawer opened by the top bar's menu button. */
export function Sidebar({ id, open, onClose }: SidebarProps) {
  const { user, logout } = useAuth();
  const closeRef = useRef<HTMLButtonElement>(null);
  const libraries = useQuery({ ...folderQueries.libraries(), enabled: user !== null });
  const hasFolders = (libraries.data?.libraries.length ?? 0) > 0;
  const main = hasFolders ? [...MAIN_ITEMS.slice(0, 3), FOLDERS_ITEM, ...MAIN_ITEMS.slice(3)] : MAIN_ITEMS;
  useEffect(() => {
    if (open) closeRef.current?.focus();
  }, [open]);
  return (
    <aside id={id} className="sidebar" data-open={open}>
      <div className="sidebar__brand">
        <Link to={Paths.dashboard} className="brand" aria-label="Tonearm home">
          <LogoMark />
          <span className="brand__name">Tonearm</span>
        </Link>
        <button
          ref={closeRef}
          type="button"
          className="icon-button sidebar__close"
          aria-label="Close menu"
          onClick={onClose}
        >
          <CloseIcon />
        </button>
      </div>
      <nav aria-label="Main" className="sidebar__nav">
        <NavList items={isAdmin(user) ? [...main, ...ADMIN_ITEMS] : main} />
        <hr className="sidebar__divider" />
        <NavList items={EXTRA_ITEMS} label="Your library" />
      </nav>
      {user && <UserCard user={user} onLogout={() => void logout()} />}
    </aside>
  );
}
