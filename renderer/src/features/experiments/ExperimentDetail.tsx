import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { EXPERIMENT_STATUSES } from '../../../../shared/model';
import type { Experiment, ExperimentStatus, HardwareProfile } from '../../../../shared/model';
import { useApp } from '../../app/AppContext';
import { useAction } from '../../app/useAction';
import { Markdown } from '../../components/Markdown/Markdown';
import { StatusBadge } from '../../components/StatusBadge/StatusBadge';
import { useUndo } from '../../app/undo';
import { useDraft } from '../../hooks/useDraft';
import type { UsualMetric } from '../../../../shared/evidence';
import { CapturesPanel } from '../evidence/CapturesPanel';
import { ProposalsPanel } from '../evidence/ProposalsPanel';
import { ConfigChangesEditor } from './ConfigChangesEditor';
import { MetricsEditor } from './MetricsEditor';
import { focusAfterRemoval } from '../../lib/focus';
import { profileSummary } from '../../../../shared/profileSummary';

interface Draft { title: string; date: string; status: ExperimentStatus; profileId: number | null; notes: string }
const toDraft = (e: Experiment): Draft => ({ title: e.title, date: e.date, status: e.status, profileId: e.profileId, notes: e.notes });

/** One experiment: its fields, notes (Markdown, rendered safely), captures, config changes and results. */
export function ExperimentDetail({ experiment, index, profiles, usual, onDeleted }: {
  experiment: Experiment;
  index: number;
  profiles: HardwareProfile[];
  /** the metrics the study usually records, proposed by the result form */
  usual: readonly UsualMetric[];
  onDeleted: () => void;
}) {
  const { navigate } = useApp();
  const run = useAction();
  const { record } = useUndo();
  const saved = toDraft(experiment);
  // unsaved edits are a draft: kept while the user looks at another experiment or study, and across reloads
  const kept = useDraft(`experiment:${experiment.id}`, saved);
  const draft = kept.value;
  const [previewNotes, setPreviewNotes] = useState(() => !!experiment.notes);
  const dirty = kept.dirty;
  const set = (patch: Partial<Draft>) => kept.set((d) => ({ ...d, ...patch }));
  // notes of a draft kept from before open in the editor, where they can be changed
  const restoredNotes = kept.restored && draft.notes !== experiment.notes;
  useEffect(() => { if (restoredNotes) setPreviewNotes(false); }, [restoredNotes]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!draft.title.trim()) return;
    const old = saved;
    const ok = await run((api) => api.updateExperiment(experiment.id, { ...draft, title: draft.title.trim() }));
    if (!ok) return;
    kept.committed();
    if (draft.notes.trim()) setPreviewNotes(true);
    record({ message: `Experiment “${ok.title}” edited.`, toast: false, undo: (api) => api.updateExperiment(experiment.id, old) });
  };
  const remove = async () => {
    // the focus goes to the experiment next to it in the list (taken while it is still listed)
    const refocus = focusAfterRemoval(`experiment:${experiment.id}`, 'add-experiment');
    // the next experiment is shown first: nothing on screen asks for this one again once it is in the trash
    onDeleted();
    const ok = await run(async (api) => { await api.deleteExperiment(experiment.id); return true; });
    if (!ok) { navigate({ name: 'study', studyId: experiment.studyId, experimentId: experiment.id }); return; }
    refocus();
    record({
      message: `Experiment “${experiment.title}” deleted: it is in the trash.`,
      undo: async (api) => { const x = await api.restoreExperiment(experiment.id); navigate({ name: 'study', studyId: x.studyId, experimentId: x.id }); },
    });
  };
  const stepLabel = index === 0 ? 'Baseline' : `Step ${index}`;
  // the profile chosen (saved or not), summarised under the choice
  const profile = profiles.find((p) => p.id === draft.profileId);

  return (
    <section className={`panel experiment-detail status-row-${experiment.status}`} aria-label={`Experiment ${experiment.title}`}>
      <div className="detail-heading">
        <h2>{stepLabel !== experiment.title && <span className="muted">{stepLabel} · </span>}{experiment.title}</h2>
        <StatusBadge status={experiment.status} />
        <button type="button" className="btn btn-small btn-danger push-right" onClick={remove}>Delete experiment</button>
      </div>
      <form className="form experiment-form" aria-label="Experiment details" onSubmit={save}>
        <div className="form-grid">
          <label className="field span-2">
            <span>Title</span>
            <input value={draft.title} required onChange={(e) => set({ title: e.target.value })} />
          </label>
          <label className="field">
            <span>Date</span>
            <input type="date" value={draft.date} onChange={(e) => set({ date: e.target.value })} />
          </label>
          <label className="field">
            <span>Status</span>
            <select value={draft.status} onChange={(e) => set({ status: e.target.value as ExperimentStatus })}>
              {EXPERIMENT_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
            </select>
          </label>
          <label className="field span-2">
            <span>Hardware profile</span>
            <select
              value={draft.profileId ?? ''}
              onChange={(e) => set({ profileId: e.target.value === '' ? null : Number(e.target.value) })}
            >
              <option value="">— none —</option>
              {profiles.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
            </select>
          </label>
          <div className="field span-2 profile-summary">
            {profile ? (
              <span className="small muted">
                <span data-testid="profile-summary">{profileSummary(profile)}</span>{' '}
                <button type="button" className="link-button" onClick={() => navigate({ name: 'profiles', profileId: profile.id })}>Open profile</button>
              </span>
            ) : (
              <button type="button" className="link-button small" onClick={() => navigate({ name: 'profiles', profileId: null })}>Manage hardware profiles…</button>
            )}
          </div>
        </div>
        <div className="field">
          <div className="field-label-row">
            <label htmlFor={`notes-${experiment.id}`}>Notes <span className="muted small">(Markdown)</span></label>
            {draft.notes && (
              <button type="button" className="link-button small" aria-pressed={previewNotes} onClick={() => setPreviewNotes((p) => !p)}>
                {previewNotes ? 'Edit notes' : 'Preview notes'}
              </button>
            )}
          </div>
          {previewNotes && draft.notes ? (
            <div className="notes-preview" data-testid="notes-preview"><Markdown text={draft.notes} /></div>
          ) : (
            <textarea id={`notes-${experiment.id}`} rows={5} value={draft.notes} onChange={(e) => set({ notes: e.target.value })} placeholder="Commands run, what the evidence showed, why this change…" />
          )}
        </div>
        <div className="form-actions start">
          <button type="submit" className="btn btn-primary btn-small" disabled={!dirty}>Save experiment</button>
          {dirty && <button type="button" className="btn btn-small" onClick={kept.discard}>Discard changes</button>}
          {dirty && <span className="muted small">{kept.restored ? 'Unsaved draft kept from before' : 'Unsaved changes'}</span>}
        </div>
      </form>
      <CapturesPanel experiment={experiment} />
      <ProposalsPanel experiment={experiment} profiles={profiles} />
      <ConfigChangesEditor experimentId={experiment.id} changes={experiment.configChanges} />
      <MetricsEditor
        experiment={experiment}
        usual={usual}
        onOpenCapture={(captureId, line) => navigate({ name: 'capture', captureId, experimentId: experiment.id, ...(line ? { line, tab: 'raw' as const } : {}) })}
      />
    </section>
  );
}
