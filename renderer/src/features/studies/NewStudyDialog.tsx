import type { FormEvent } from 'react';
import { useState } from 'react';
import { useApp } from '../../app/AppContext';
import { useAction } from '../../app/useAction';
import { Dialog } from '../../components/Dialog/Dialog';
import { focusWhenShown } from '../../lib/focus';

export function NewStudyDialog({ onClose }: { onClose: () => void }) {
  const { navigate } = useApp();
  const run = useAction();
  const [title, setTitle] = useState('');
  const [goal, setGoal] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!title.trim()) return;
    setBusy(true);
    const study = await run((api) => api.createStudy({ title: title.trim(), goal }));
    setBusy(false);
    if (study) { onClose(); navigate({ name: 'study', studyId: study.id }); focusWhenShown(`study:${study.id}`); }
  };

  return (
    <Dialog title="New study" onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <label className="field">
          <span>Title</span>
          <input required value={title} onChange={(e) => setTitle(e.target.value)} placeholder="health-check QPS" />
        </label>
        <label className="field">
          <span>Goal</span>
          <textarea rows={3} value={goal} onChange={(e) => setGoal(e.target.value)} placeholder="What this session is trying to reach" />
        </label>
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={busy || !title.trim()}>Create study</button>
        </div>
      </form>
    </Dialog>
  );
}
