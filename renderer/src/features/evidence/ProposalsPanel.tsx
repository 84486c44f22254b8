/**
 * What an experiment's captures suggest (the back end's experimentProposals): its primary result
 * from a load generator's or fio's headline figure, its hardware profile from lscpu/free/fdisk…,
 * its config changes from two settings snapshots. Each is accepted in one action or dismissed
 * (for this session).
 */
import { useState } from 'react';
import type { ConfigProposal, Experiment, HardwareProfile, ProfileProposal, ResultProposal } from '../../../../shared/model';
import { applyProfilePatch } from '../../../../shared/profileFromCaptures';
import { formatQuantity } from '../../../../shared/units';
import { useAction } from '../../app/useAction';
import { experimentChanged } from '../../app/changes';
import { useQuery } from '../../app/useQuery';

/** Dismissed proposals, by experiment and content, for the life of the window. */
const dismissed = new Set<string>();

export function ProposalsPanel({ experiment, profiles }: { experiment: Experiment; profiles: HardwareProfile[] }) {
  // refetched whenever the notebook changes (a capture added, a result set …)
  const proposals = useQuery(experiment.captures.length ? `proposals:${experiment.id}` : null, (api) => api.experimentProposals(experiment.id), { on: experimentChanged(experiment.id, experiment.studyId) });
  const [, rerender] = useState(0);
  const p = proposals.data;
  if (!p) return null;
  const dismiss = (key: string) => { dismissed.add(key); rerender((n) => n + 1); };
  const keyOf = (kind: string, body: unknown) => `${experiment.id}:${kind}:${JSON.stringify(body)}`;
  const result = p.result && !dismissed.has(keyOf('result', p.result.captureId)) ? p.result : null;
  const profile = p.profile && !dismissed.has(keyOf('profile', p.profile.patch)) ? p.profile : null;
  const config = p.configChanges.filter((c) => !dismissed.has(keyOf('config', c.changes)));
  if (!result && !profile && !config.length) return null;
  return (
    <section className="subpanel proposals" aria-label="Suggested from the captures">
      <h3>Suggested from the captures</h3>
      {result && <ResultSuggestion experiment={experiment} proposal={result} onDismiss={() => dismiss(keyOf('result', result.captureId))} />}
      {profile && <ProfileSuggestion experiment={experiment} proposal={profile} profiles={profiles} onDismiss={() => dismiss(keyOf('profile', profile.patch))} />}
      {config.map((c) => <ConfigSuggestion key={`${c.kind}-${c.scope}`} experiment={experiment} proposal={c} onDismiss={() => dismiss(keyOf('config', c.changes))} />)}
    </section>
  );
}

function ResultSuggestion({ experiment, proposal, onDismiss }: { experiment: Experiment; proposal: ResultProposal; onDismiss: () => void }) {
  const run = useAction();
  const [choice, setChoice] = useState(proposal.preferred);
  const c = proposal.candidates[choice] ?? proposal.candidates[0]!;
  // a repeat is another run beside the primary one (the experiment's value becomes their median)
  const use = () => void run((api) => api.addResultMetric(experiment.id, { name: c.name, value: c.value, unit: c.unit, better: c.better, primary: !proposal.repeat, source: c.source }));
  if (proposal.repeat) {
    return (
      <div className="proposal" data-testid="result-proposal">
        <p><strong>{proposal.captureName}</strong> measured {c.label} again. Add it as another run of {c.name}? The experiment&apos;s value becomes the median of its runs.</p>
        <div className="form-actions start">
          <button type="button" className="btn btn-primary btn-small" onClick={use}>Add {formatQuantity(c.value, c.unit, c.name)} as another run</button>
          <button type="button" className="btn btn-small" onClick={onDismiss}>Dismiss</button>
        </div>
      </div>
    );
  }
  return (
    <div className="proposal" data-testid="result-proposal">
      <p>
        <strong>{proposal.captureName}</strong> measured{' '}
        {proposal.candidates.length > 1 ? (
          <select aria-label="Figure to use as the result" value={choice} onChange={(e) => setChoice(Number(e.target.value))}>
            {proposal.candidates.map((x, i) => <option key={i} value={i}>{x.label}</option>)}
          </select>
        ) : <span>{c.label}</span>}
        . Make it this experiment&apos;s primary result?
      </p>
      <div className="form-actions start">
        <button type="button" className="btn btn-primary btn-small" onClick={use}>Use {formatQuantity(c.value, c.unit, c.name)} as primary result</button>
        <button type="button" className="btn btn-small" onClick={onDismiss}>Dismiss</button>
      </div>
    </div>
  );
}

function ProfileSuggestion({ experiment, proposal, profiles, onDismiss }: {
  experiment: Experiment; proposal: ProfileProposal; profiles: HardwareProfile[]; onDismiss: () => void;
}) {
  const run = useAction();
  const [name, setName] = useState(proposal.suggestedName);
  const current = profiles.find((x) => x.id === proposal.profileId);
  const files = [...new Set(Object.values(proposal.sources))];
  const fields = Object.keys(proposal.patch).map((k) => (k === 'memoryBytes' ? 'memory' : k === 'cpuModel' ? 'CPU model' : k));
  const accept = () => void run(async (api) => {
    if (current) {
      const { id, usedBy: _u, ...input } = current;
      return api.updateProfile(id, applyProfilePatch(input, proposal.patch));
    }
    const created = await api.createProfile({ ...proposal.patch, name: name.trim() || proposal.suggestedName });
    return api.updateExperiment(experiment.id, { profileId: created.id });
  });
  return (
    <div className="proposal" data-testid="profile-proposal">
      <p>
        <strong>{files.join(', ')}</strong> describe{files.length === 1 ? 's' : ''} the machine ({fields.join(', ')}).{' '}
        {current ? <>Update the hardware profile “{current.name}” with it?</> : <>Create a hardware profile for this experiment?</>}
      </p>
      {proposal.notes.length > 0 && <ul className="small muted">{proposal.notes.map((n, i) => <li key={i}>{n}</li>)}</ul>}
      <div className="form-actions start">
        {!current && <label className="field inline"><span>Name</span><input value={name} onChange={(e) => setName(e.target.value)} /></label>}
        <button type="button" className="btn btn-primary btn-small" onClick={accept}>{current ? 'Update profile' : 'Create profile'}</button>
        <button type="button" className="btn btn-small" onClick={onDismiss}>Dismiss</button>
      </div>
    </div>
  );
}

function ConfigSuggestion({ experiment, proposal, onDismiss }: { experiment: Experiment; proposal: ConfigProposal; onDismiss: () => void }) {
  const run = useAction();
  const [checked, setChecked] = useState<Record<string, boolean>>(() => Object.fromEntries(proposal.changes.map((c) => [c.key, true])));
  const chosen = proposal.changes.filter((c) => checked[c.key]);
  const add = () => void run(async (api) => {
    for (const c of chosen) await api.addConfigChange(experiment.id, { scope: proposal.scope, key: c.key, before: c.before ?? '', after: c.after ?? '' });
    return true;
  });
  return (
    <div className="proposal" data-testid="config-proposal">
      <p>
        <strong>{proposal.afterName}</strong> differs from <strong>{proposal.beforeName}</strong> on “{proposal.beforeExperimentTitle}” in{' '}
        {proposal.changes.length} setting{proposal.changes.length === 1 ? '' : 's'}. Record them as this experiment&apos;s config changes?
      </p>
      <ul className="proposal-changes">
        {proposal.changes.map((c) => (
          <li key={c.key}>
            <label>
              <input type="checkbox" checked={!!checked[c.key]} onChange={(e) => setChecked((x) => ({ ...x, [c.key]: e.target.checked }))} />{' '}
              <code>{c.key}</code>: <span className="muted">{c.before ?? '(unset)'}</span> → <span>{c.after ?? '(unset)'}</span>
            </label>
          </li>
        ))}
      </ul>
      <div className="form-actions start">
        <button type="button" className="btn btn-primary btn-small" disabled={!chosen.length} onClick={add}>Add {chosen.length} config change{chosen.length === 1 ? '' : 's'}</button>
        <button type="button" className="btn btn-small" onClick={onDismiss}>Dismiss</button>
      </div>
    </div>
  );
}
