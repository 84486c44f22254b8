import type { FormEvent } from 'react';
import { useEffect, useState } from 'react';
import type { Study } from '../../../../shared/model';
import { useApp } from '../../app/AppContext';
import { useAction } from '../../app/useAction';
import { useToasts } from '../../components/Toast/useToasts';

/** Title (rename in place), goal text, Export, and Delete with an Undo toast (restoreStudy). */
export function StudyHeader({ study, onExport }: { study: Study; onExport: () => void }) {
  const { navigate } = useApp();
  const run = useAction();
  const { show } = useToasts();
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(study.title);
  const [goal, setGoal] = useState(study.goal);

  useEffect(() => { setTitle(study.title); setGoal(study.goal); setRenaming(false); }, [study.id, study.title, study.goal]);

  const saveTitle = async (e: FormEvent) => {
    e.preventDefault();
    if (!title.trim()) return;
    const ok = await run((api) => api.updateStudy(study.id, { title: title.trim() }));
    if (ok) setRenaming(false);
  };
  const saveGoal = () => run((api) => api.updateStudy(study.id, { goal }));
  const remove = async () => {
    // away from the study first: nothing on screen asks for it again once it is in the trash
    navigate({ name: 'home' });
    const ok = await run(async (api) => { await api.deleteStudy(study.id); return true; });
    if (!ok) { navigate({ name: 'study', studyId: study.id }); return; }
    show({
      message: `Study “${study.title}” deleted.`,
      action: {
        label: 'Undo',
        run: () => void run((api) => api.restoreStudy(study.id)).then((s) => { if (s) navigate({ name: 'study', studyId: s.id }); }),
      },
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
            onKeyDown={(e) => { if (e.key === 'Escape') { setTitle(study.title); setRenaming(false); } }}
          />
          <button type="submit" className="btn btn-primary btn-small">Save title</button>
          <button type="button" className="btn btn-small" onClick={() => { setTitle(study.title); setRenaming(false); }}>Cancel</button>
        </form>
      ) : (
        <div className="title-row">
          <h1>{study.title}</h1>
          <button type="button" className="btn btn-small" onClick={() => setRenaming(true)}>Rename</button>
          <button type="button" className="btn btn-small" onClick={onExport} title="A report (HTML, Markdown, PDF) or a bundle (.eln) — also File › Export… (Ctrl+E)">Export…</button>
          <button type="button" className="btn btn-small btn-danger" onClick={remove}>Delete study</button>
        </div>
      )}
      <div className="goal">
        <label className="field">
          <span>Goal</span>
          <textarea rows={2} value={goal} onChange={(e) => setGoal(e.target.value)} placeholder="What this session is trying to reach" />
        </label>
        {goal !== study.goal && (
          <div className="form-actions">
            <button type="button" className="btn btn-small" onClick={() => setGoal(study.goal)}>Discard</button>
            <button type="button" className="btn btn-primary btn-small" onClick={saveGoal}>Save goal</button>
          </div>
        )}
      </div>
    </header>
  );
}
