import { Suspense, useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { PlayerBar } from '../features/player-bar/PlayerBar.js';
import { QueuePanel } from '../features/player-bar/QueuePanel.js';
import { ShortcutsDialog } from '../features/player-bar/ShortcutsDialog.js';
import { useSongDataPreload } from '../features/songs/useSongs.js';
import { Paths } from '../lib/paths.js';
import { registerServiceWorker } from '../lib/register-service-worker.js';
import { useOnline } from '../lib/useOnline.js';
import { listenForShortcuts } from '../player/keyboard-shortcuts.js';
import { PlayerProvider } from '../player/PlayerProvider.js';
import { usePlayerRuntime } from '../player/usePlayer.js';
import { useCurrentUser } from '../shell/auth/useAuth.js';
import { LogoMark, MenuIcon, OfflineIcon } from '../ui/icons.js';
import { RouteLoader } from '../ui/RouteLoader.js';
import { ScrollContainerContext } from '../ui/useScrollContainer.js';
import { Sidebar } from './Sidebar.js';
import { SongActionsProvider } from './SongActionsProvider.js';
import '../ui/brand.css';
import '../ui/buttons.css';
import './DashboardLayout.css';

const SIDEBAR_ID = 'app-sidebar';
const QUEUE_ID = 'player-queue';

function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <p className="offline-banner" role="status">
      <OfflineIcon size={18} />
      You are offline. Downloaded songs still play.
    </p>
  );
}

/** Queue view and shortcut help: opened from the player bar or with Q and ?. */
function usePlayerOverlays() {
  const runtime = usePlayerRuntime();
  const [queueOpen, setQueueOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  useEffect(
    () =>
      listenForShortcuts({
        controls: runtime.controls,
        getState: runtime.store.getState,
        toggleQueue: () => {
          setQueueOpen((open) => !open);
        },
        showHelp: () => {
          setHelpOpen(true);
        },
      }),
    [runtime],
  );
  return { queueOpen, setQueueOpen, helpOpen, setHelpOpen };
}

/**
 * The signed-in app: one player for every dashboard page. It lives here, not above the router, so nobody signed out
 * loads the player's code or the welcome song's audio; this layout stays mounted while the pages inside /dashboard
 * change, so the music does not stop when navigating.
 */
export function DashboardLayout() {
  return (
    <PlayerProvider>
      <DashboardShell />
    </PlayerProvider>
  );
}

/** The Spotify-like shell: sidebar, main view, persistent player bar. */
function DashboardShell() {
  const user = useCurrentUser();
  // Offline audio and the offline shell are for someone signed in: the worker's precache (every chunk, the welcome
  // song's audio) is not downloaded by the signed-out page.
  useEffect(registerServiceWorker, []);
  useSongDataPreload(user);
  const overlays = usePlayerOverlays();
  const location = useLocation();
  const [main, setMain] = useState<HTMLElement | null>(null);
  const [menuFor, setMenuFor] = useState<string | null>(null);
  // The drawer belongs to the page it was opened on: navigating closes it without an effect.
  const menuOpen = menuFor === location.key;

  const mainRef = useRef<HTMLElement | null>(null);
  const attachMain = useCallback((element: HTMLElement | null) => {
    mainRef.current = element;
    setMain(element);
  }, []);

  useEffect(() => {
    // A new page starts at its top, not at the previous page's scroll position.
    if (mainRef.current) mainRef.current.scrollTop = 0;
  }, [location.pathname]);

  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const closeMenu = (): void => {
    setMenuFor(null);
    menuButtonRef.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'Escape' && menuOpen) closeMenu();
  };

  return (
    <SongActionsProvider>
      <div className="shell" data-queue-open={overlays.queueOpen} onKeyDown={onKeyDown}>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <Sidebar id={SIDEBAR_ID} open={menuOpen} onClose={closeMenu} />
        {menuOpen && <div className="shell__scrim" aria-hidden="true" onClick={closeMenu} />}
        <div className="shell__content">
          <header className="topbar">
            <button
              ref={menuButtonRef}
              type="button"
              className="icon-button topbar__menu"
              aria-label="Open menu"
              aria-expanded={menuOpen}
              aria-controls={SIDEBAR_ID}
              onClick={() => {
                setMenuFor(location.key);
              }}
            >
              <MenuIcon />
            </button>
            <Link to={Paths.dashboard} className="brand topbar__brand" aria-label="Tonearm home">
              <LogoMark size={28} />
              <span className="brand__name">Tonearm</span>
            </Link>
          </header>
          <OfflineBanner />
          <main id="main" ref={attachMain} className="main" tabIndex={-1}>
            <ScrollContainerContext value={main}>
              <Suspense fallback={<RouteLoader />}>
                <Outlet />
              </Suspense>
            </ScrollContainerContext>
          </main>
        </div>
        {overlays.queueOpen && (
          <QueuePanel
            id={QUEUE_ID}
            onClose={() => {
              overlays.setQueueOpen(false);
            }}
          />
        )}
        <PlayerBar
          queueId={QUEUE_ID}
          queueOpen={overlays.queueOpen}
          onToggleQueue={() => {
            overlays.setQueueOpen(!overlays.queueOpen);
          }}
        />
        {overlays.helpOpen && (
          <ShortcutsDialog
            onClose={() => {
              overlays.setHelpOpen(false);
            }}
          />
        )}
      </div>
    </SongActionsProvider>
  );
}
