import { useApp } from '../../app/AppContext';
import { profilesChanged } from '../../app/changes';
import { useQuery } from '../../app/useQuery';
import { profileSummary } from '../../../../shared/profileSummary';
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
        <button type="button" className="btn btn-small" data-focus-key="new-profile" onClick={() => navigate({ name: 'profiles', profileId: null })}>New profile</button>
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
                  data-focus-key={`profile:${p.id}`}
                  data-focus-group="profiles"
                  onClick={() => navigate({ name: 'profiles', profileId: p.id })}
                >
                  <span className="nav-title" title={p.name}>{p.name}</span>
                  <span className="nav-meta profile-meta" data-testid="profile-summary">
                    {[profileSummary(p), `used by ${p.usedBy}`].filter(Boolean).join(' · ')}
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
