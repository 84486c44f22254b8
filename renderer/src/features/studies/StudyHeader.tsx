import type { FormEvent } from 'react';
import { useEffect, useState } from 'react';
import type { Study } from '../../../../shared/model';
import { useApp } from '../../app/AppContext';
import { useAction } from '../../app/useAction';
import { useUndo } from '../../app/undo';
import { useDraft } from '../../hooks/useDraft';
import { focusAfterRemoval, focusWhenShown } from '../../lib/focus';

/** Title (rename in place), goal text, Export, and Delete with an Undo toast (restoreStudy). */
export function StudyHeader({ study, onExport }: { study: Study; onExport: () => void }) {
  const { navigate } = useApp();
  const run = useAction();
  const { record } = useUndo();
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(study.title);
  // the goal being typed is a draft until saved: kept across switching studies and reloads
  const goalDraft = useDraft(`goal:${study.id}`, study.goal);
  const goal = goalDraft.value;

  useEffect(() => { setTitle(study.title); setRenaming(false); }, [study.id, study.title]);

  const saveTitle = async (e: FormEvent) => {
    e.preventDefault();
    if (!title.trim()) return;
    const old = study.title;
    const ok = await run((api) => api.updateStudy(study.id, { title: title.trim() }));
    if (!ok) return;
    setRenaming(false);
    focusWhenShown('rename-study');
    if (ok.title !== old) record({ message: `Study “${old}” renamed to “${ok.title}”.`, toast: false, undo: (api) => api.updateStudy(study.id, { title: old }) });
  };
  const saveGoal = async () => {
    const old = study.goal;
    const ok = await run((api) => api.updateStudy(study.id, { goal }));
    if (!ok) return;
    goalDraft.committed();
    if (ok.goal !== old) record({ message: `Goal of “${study.title}” changed.`, toast: false, undo: (api) => api.updateStudy(study.id, { goal: old }) });
  };
  const remove = async () => {
    // the focus goes to the study next to it in the sidebar (taken while it is still listed)
    const refocus = focusAfterRemoval(`study:${study.id}`, 'new-study');
    // away from the study first: nothing on screen asks for it again once it is in the trash
    navigate({ name: 'home' });
    const ok = await run(async (api) => { await api.deleteStudy(study.id); return true; });
    if (!ok) { navigate({ name: 'study', studyId: study.id }); return; }
    refocus();
    record({
      message: `Study “${study.title}” deleted: it is in the trash.`,
      undo: async (api) => { const s = await api.restoreStudy(study.id); navigate({ name: 'study', studyId: s.id }); },
    });
  };

  return (
    <header className="study-header">
      {renaming ? (
        <form className="inline-form" aria-label="Rename study" onSubmit={saveTitle}>
          <input
            autoFocus
            aria-label="Study title"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            onKeyDown={(e) => { if (e.key === 'Escape') { setTitle(study.title); setRenaming(false); focusWhenShown('rename-study'); } }}
          />
          <button type="submit" className="btn btn-primary btn-small">Save title</button>
          <button type="button" className="btn btn-small" onClick={() => { setTitle(study.title); setRenaming(false); focusWhenShown('rename-study'); }}>Cancel</button>
        </form>
      ) : (
        <div className="title-row">
          <h1>{study.title}</h1>
          <button type="button" className="btn btn-small" data-focus-key="rename-study" onClick={() => setRenaming(true)}>Rename</button>
          <button type="button" className="btn btn-small" onClick={onExport} title="A report (HTML, Markdown, PDF) or a bundle (.eln) — also File › Export… (Ctrl+E)">Export…</button>
          <button type="button" className="btn btn-small btn-danger" onClick={remove}>Delete study</button>
        </div>
      )}
      <div className="goal">
        <label className="field">
          <span>Goal</span>
          <textarea rows={2} value={goal} onChange={(e) => goalDraft.set(e.target.value)} placeholder="What this session is trying to reach" />
        </label>
        {goalDraft.dirty && (
          <div className="form-actions">
            <span className="muted small">{goalDraft.restored ? 'Unsaved draft kept from before' : 'Unsaved changes'}</span>
            <button type="button" className="btn btn-small" onClick={goalDraft.discard}>Discard</button>
            <button type="button" className="btn btn-primary btn-small" onClick={() => void saveGoal()}>Save goal</button>
          </div>
        )}
      </div>
    </header>
  );
}
