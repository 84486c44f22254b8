/**
 * "Store these captures on…": pick the study and the experiment (or a new experiment) for captures
 * that came without a target — previewed in the Captures view, chosen with File › Import Captures…,
 * or dropped on a study rather than on one of its experiments.
 */
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useApp } from '../../app/AppContext';
import { useAction } from '../../app/useAction';
import { studiesChanged } from '../../app/changes';
import { useQuery } from '../../app/useQuery';
import { useStudyOutline } from '../studies/useStudyData';
import { Dialog } from '../../components/Dialog/Dialog';
import { useImport } from './useImport';
import type { Intake } from './useImport';

const NEW = -1;

export function AttachDialog({ intakes, what, studyId: initialStudy, experimentId: initialExperiment, onClose, onDone }: {
  /** what to store (several: one after another, e.g. files dropped and text pasted in the Captures view) */
  intakes: Intake[];
  /** what is being stored, e.g. "3 files" */
  what: string;
  studyId?: number | null;
  /** preselected experiment; NEW (−1) proposes a new one */
  experimentId?: number | null;
  onClose: () => void;
  onDone?: () => void;
}) {
  const { navigate } = useApp();
  const run = useAction();
  const { importInto, busy } = useImport();
  const studies = useQuery('studies', (api) => api.listStudies(), { on: studiesChanged });
  const [studyId, setStudyId] = useState<number | null>(initialStudy ?? null);
  const study = useStudyOutline(studyId);
  const [experimentId, setExperimentId] = useState<number | null>(initialExperiment ?? null);
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ids = { study: useId(), experiment: useId(), title: useId() };

  // default to the first study, and to the study's last experiment (or a new one when it has none)
  useEffect(() => { if (studyId === null && studies.data?.[0]) setStudyId(studies.data[0].id); }, [studies.data, studyId]);
  const experiments = study.data?.study.id === studyId ? study.data.experiments : [];
  useEffect(() => {
    if (!study.data || study.data.study.id !== studyId) return;
    if (experimentId !== null && (experimentId === NEW || experiments.some((e) => e.id === experimentId))) return;
    setExperimentId(experiments.length ? experiments[experiments.length - 1]!.id : NEW);
  }, [study.data, studyId, experimentId, experiments]);
  const newTitle = title.trim() || (experiments.length === 0 ? 'Baseline' : `Step ${experiments.length}`);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (studyId === null) { setError('Create a study first.'); return; }
    setError(null);
    let target = experimentId;
    if (target === NEW || target === null) {
      const created = await run((api) => api.createExperiment(studyId, { title: newTitle, status: 'kept', date: new Date().toISOString().slice(0, 10) }));
      if (!created) return;
      target = created.id;
    }
    onClose();
    let result;
    for (const intake of intakes) result = (await importInto(target, intake)) ?? result;
    if (result) {
      navigate({ name: 'study', studyId, experimentId: target });
      onDone?.();
    }
  };

  return (
    <Dialog title={`Store ${what} on an experiment`} onClose={onClose}>
      <form className="form" aria-label="Store captures on" onSubmit={(e) => void submit(e)}>
        {studies.data && studies.data.length === 0 && <p className="muted">There is no study yet: create one first, then store the captures on one of its experiments.</p>}
        <div className="field">
          <label htmlFor={ids.study}>Study</label>
          <select id={ids.study} value={studyId ?? ''} onChange={(e) => { setStudyId(Number(e.target.value)); setExperimentId(null); }}>
            {(studies.data ?? []).map((s) => <option key={s.id} value={s.id}>{s.title}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.experiment}>Experiment</label>
          <select id={ids.experiment} value={experimentId ?? NEW} onChange={(e) => setExperimentId(Number(e.target.value))}>
            {experiments.map((x, i) => <option key={x.id} value={x.id}>{i === 0 ? 'Baseline' : `Step ${i}`} · {x.title}</option>)}
            <option value={NEW}>New experiment…</option>
          </select>
        </div>
        {(experimentId === NEW || experimentId === null) && (
          <div className="field">
            <label htmlFor={ids.title}>New experiment title</label>
            <input id={ids.title} value={title} placeholder={newTitle} onChange={(e) => setTitle(e.target.value)} />
          </div>
        )}
        {error && <p role="alert" className="error-text">{error}</p>}
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={busy || studyId === null}>Store captures</button>
        </div>
      </form>
    </Dialog>
  );
}

export { NEW as NEW_EXPERIMENT };
