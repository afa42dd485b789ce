import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useAuth } from '../../shell/auth/useAuth.js';
import { DownloadIcon, LibraryIcon, LogoMark, MusicIcon } from '../../ui/icons.js';
import { RouteLoader } from '../../ui/RouteLoader.js';
import { useLandingHost } from './landing-host.js';
import { LoginForm } from './LoginForm.js';
import { RegisterPanel } from './RegisterForm.js';
import '../../ui/brand.css';
import '../../ui/page.css';
import './HomePage.css';

type Tab = 'login' | 'register';
const TABS: { id: Tab; label: string }[] = [
  { id: 'login', label: 'Log in' },
  { id: 'register', label: 'Sign up' },
];

const FEATURES = [
  { icon: <MusicIcon />, title: 'Your whole catalogue', text: 'Stream every song on your server, from any browser.' },
  { icon: <LibraryIcon />, title: 'Playlists', text: 'Collect favourites into playlists and share them.' },
  { icon: <DownloadIcon />, title: 'Offline downloads', text: 'Premium listeners keep songs for the road.' },
];

/** Accessible tabs: arrow keys move between Log in and Sign up. */
function AuthTabs({ tab, onChange, idBase }: { tab: Tab; onChange: (tab: Tab) => void; idBase: string }) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next: Tab = tab === 'login' ? 'register' : 'login';
    onChange(next);
    document.getElementById(`${idBase}-tab-${next}`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Account" className="tabs" onKeyDown={onKeyDown}>
      {TABS.map((item) => (
        <button
          key={item.id}
          id={`${idBase}-tab-${item.id}`}
          type="button"
          role="tab"
          aria-selected={tab === item.id}
          aria-controls={`${idBase}-panel`}
          tabIndex={tab === item.id ? 0 : -1}
          className="tabs__tab"
          onClick={() => {
            onChange(item.id);
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}

/**
 * `/`: product intro with the login and registration forms. The headline, then the card, then the rest of the pitch:
 * on a phone the form starts on the first screen; on a desktop the card keeps its top whichever tab is open.
 */
export function HomePage() {
  const { user } = useAuth();
  const host = useLandingHost();
  // The setup link (`/?setup=CODE`) is for creating the administrator account: open on Sign up.
  const [tab, setTab] = useState<Tab>(host.setupCode === undefined ? 'login' : 'register');
  const idBase = useId();
  const signedIn = Boolean(user);
  useEffect(() => {
    if (signedIn) void host.goToDashboard({ replace: true });
  }, [signedIn, host]);
  if (user) return null;

  return (
    <div className="landing">
      <header className="landing__header">
        <span className="brand">
          <LogoMark size={36} />
          <span className="brand__name">Tonearm</span>
        </span>
      </header>
      <main className="landing__main">
        <div className="landing__pitch">
          <p className="eyebrow">Self-hosted music streaming</p>
          <h1 id={`${idBase}-headline`} className="landing__headline">
            Your music, <span className="accent-text">your server</span>, every room.
          </h1>
        </div>
        <section className="auth-card" aria-label="Log in or sign up">
          {user === undefined ? (
            <RouteLoader label="Checking your session" />
          ) : (
            <>
              <AuthTabs tab={tab} onChange={setTab} idBase={idBase} />
              <div id={`${idBase}-panel`} role="tabpanel" aria-labelledby={`${idBase}-tab-${tab}`}>
                {tab === 'login' ? <LoginForm /> : <RegisterPanel />}
              </div>
            </>
          )}
        </section>
        <div className="landing__more">
          <p className="landing__lead">
            Tonearm streams your own catalogue to every browser and phone. Browse artists, build playlists, keep a list
            of what you played last and take songs offline.
          </p>
          <ul className="feature-list">
            {FEATURES.map((feature) => (
              <li key={feature.title} className="feature">
                <span className="feature__icon">{feature.icon}</span>
                <span>
                  <strong className="feature__title">{feature.title}</strong>
                  <span className="feature__text">{feature.text}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
      </main>
    </div>
  );
}
