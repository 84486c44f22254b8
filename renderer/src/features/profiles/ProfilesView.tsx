import { useApp } from '../../app/AppContext';
import { profilesChanged } from '../../app/changes';
import { useQuery } from '../../app/useQuery';
import { formatBytes } from '../../../../shared/format';
import { ProfileForm } from './ProfileForm';

/** Hardware profiles: the machines experiments ran on, shared across experiments and studies. */
export function ProfilesView({ profileId }: { profileId: number | null | undefined }) {
  const { navigate } = useApp();
  const profiles = useQuery('profiles', (api) => api.listProfiles(), { on: profilesChanged });
  const list = profiles.data ?? [];
  const selected = profileId === null || profileId === undefined ? null : list.find((p) => p.id === profileId) ?? null;
  const creating = profileId === null || profileId === undefined;

  return (
    <div className="view profiles-view">
      <header className="title-row">
        <h1>Hardware profiles</h1>
        <button type="button" className="btn btn-small" onClick={() => navigate({ name: 'profiles', profileId: null })}>New profile</button>
      </header>
      {profiles.error && <p role="alert" className="error-text">{profiles.error}</p>}
      <div className="profiles-layout">
        <nav className="panel" aria-label="Profiles">
          {list.length === 0 && <p className="muted small">No profiles yet. Describe the machine your experiments run on.</p>}
          <ul className="nav-list">
            {list.map((p) => (
              <li key={p.id}>
                <button
                  type="button"
                  className={`nav-item ${selected?.id === p.id ? 'active' : ''}`}
                  aria-current={selected?.id === p.id ? 'true' : undefined}
                  onClick={() => navigate({ name: 'profiles', profileId: p.id })}
                >
                  <span className="nav-title">{p.name}</span>
                  <span className="nav-meta">
                    {[p.cores && `${p.cores}C`, p.memoryBytes && formatBytes(p.memoryBytes)].filter(Boolean).join(' / ')}
                    {' · '}used by {p.usedBy}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </nav>
        {creating ? (
          <ProfileForm key="new" profile={null} />
        ) : selected ? (
          <ProfileForm key={selected.id} profile={selected} />
        ) : profiles.data ? <p className="muted">That profile no longer exists.</p> : null}
      </div>
    </div>
  );
}
