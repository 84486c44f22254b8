import { useEffect, useMemo, useRef, useState } from 'react';
import { usualMetrics } from '../../../../shared/evidence';
import { useApp } from '../../app/AppContext';
import { profilesChanged } from '../../app/changes';
import { useQuery } from '../../app/useQuery';
import { useExperiment, useStudyComparison, useStudyOutline } from './useStudyData';
import { loadPlotly } from '../../components/Chart/plotly';
import { ExperimentDetail } from '../experiments/ExperimentDetail';
import { ExperimentList } from '../experiments/ExperimentList';
import { RequirementsEditor } from '../requirements/RequirementsEditor';
import { ComparisonView } from '../comparison/ComparisonView';
import { StudyHeader } from './StudyHeader';
import { AttachDialog, NEW_EXPERIMENT } from '../evidence/AttachDialog';
import { useFileDrop } from '../../hooks/useFileDrop';

export function StudyView({ studyId, experimentId, onExport }: { studyId: number; experimentId: number | null; onExport: () => void }) {
  const { navigate } = useApp();
  // the outline and the comparison load at once (the chart needs both); plotly loads meanwhile
  const detail = useStudyOutline(studyId);
  const comparison = useStudyComparison(studyId);
  useEffect(() => { void loadPlotly().catch(() => undefined); }, []);
  const profiles = useQuery('profiles', (api) => api.listProfiles(), { on: profilesChanged });
  const experiments = useMemo(() => detail.data?.experiments ?? [], [detail.data]);
  const usual = useMemo(() => usualMetrics(experiments), [experiments]);
  const selected = experiments.find((e) => e.id === experimentId) ?? null;
  const select = (id: number | null) => navigate({ name: 'study', studyId, experimentId: id });

  // Select the baseline by default.
  const firstId = experiments[0]?.id ?? null;
  // the first experiment chosen for the user on opening a study: shown, but the view stays at its top
  const chosenForUser = useRef<number | null>(null);
  useEffect(() => {
    if (experimentId === null && firstId !== null) {
      chosenForUser.current = firstId;
      navigate({ name: 'study', studyId, experimentId: firstId });
    }
  }, [experimentId, firstId, studyId, navigate]);

  // files dropped on the study (not on one of its experiments) propose a new experiment for them
  const [dropped, setDropped] = useState<File[] | null>(null);
  const { dragging, handlers } = useFileDrop((files) => { if (files.length) setDropped(files); });

  const selectedId = selected?.id ?? null;
  // the selected experiment in full (notes, captures): the outline leaves them out
  const full = useExperiment(selectedId, studyId);
  const experiment = full.data?.id === selectedId ? full.data : undefined;
  useEffect(() => {
    // a selection the user made (keys, a search hit) is scrolled into view; the one made on opening is not,
    // so the study opens at its title, timeline and charts rather than scrolled down to its list
    if (selectedId === null) return;
    if (chosenForUser.current === selectedId) { chosenForUser.current = null; return; }
    document.getElementById(`experiment-${selectedId}`)?.scrollIntoView({ block: 'nearest' });
  }, [selectedId]);

  if (detail.error) return <div className="view"><p role="alert" className="error-text">{detail.error}</p></div>;
  if (!detail.data) return <div className="view"><p className="muted">Loading…</p></div>;
  const { study } = detail.data;
  const index = selected ? experiments.indexOf(selected) : -1;

  return (
    <div className={`view study-view ${dragging ? 'file-over' : ''}`} {...handlers}>
      {dragging && <p className="drop-hint" aria-hidden="true">Drop on an experiment to store the captures there, or anywhere else for a new experiment</p>}
      {dropped && (
        <AttachDialog
          intakes={[{ files: dropped }]}
          what={dropped.length === 1 ? dropped[0]!.name : `${dropped.length} files`}
          studyId={study.id}
          experimentId={NEW_EXPERIMENT}
          onClose={() => setDropped(null)}
        />
      )}
      <StudyHeader study={study} onExport={onExport} />
      <RequirementsEditor studyId={study.id} requirements={study.requirements} comparison={comparison.data} onSelect={select} />
      <ComparisonView study={study} comparison={comparison} experiments={experiments} onSelect={select} />
      <div className="experiments-layout">
        <ExperimentList studyId={study.id} experiments={experiments} selectedId={selected?.id ?? null} onSelect={select} />
        <div id={selected ? `experiment-${selected.id}` : undefined}>
          {selected && experiment ? (
            <ExperimentDetail
              key={selected.id}
              experiment={experiment}
              index={index}
              profiles={profiles.data ?? []}
              usual={usual}
              onDeleted={() => {
                const next = experiments[index + 1] ?? experiments[index - 1] ?? null;
                select(next?.id ?? null);
              }}
            />
          ) : selected ? <p className={full.error ? 'error-text panel' : 'muted panel'} role={full.error ? 'alert' : undefined}>{full.error ?? 'Loading…'}</p>
            : experiments.length > 0 ? <p className="muted panel">Select an experiment.</p> : null}
        </div>
      </div>
    </div>
  );
}
