/**
 * A throwaway in-memory TunebookApi for `vite` dev mode only (open http://localhost:5173/?memory).
 * It is imported behind `import.meta.env.DEV`, so production builds never contain it.
 */
import { TunebookError } from '../../../shared/api';
import type { ApiEvents, ApiMethods, TunebookApi } from '../../../shared/api';
import type { Experiment, HardwareProfile, SearchHit, Study, TimelineRow } from '../../../shared/model';

export function createMemoryApi(): TunebookApi {
  let nextId = 1;
  const now = () => new Date().toISOString();
  const studies = new Map<number, Study & { deleted: boolean }>();
  const profiles = new Map<number, HardwareProfile>();
  const experiments = new Map<number, Experiment & { deleted: boolean }>();
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const recent = ['/tmp/dev.tunebook'];
  let path = '/tmp/dev.tunebook';

  const study = (id: number) => {
    const s = studies.get(id);
    if (!s || s.deleted) throw new TunebookError('not-found', `No study ${id}`);
    return s;
  };
  const exp = (id: number) => {
    const e = experiments.get(id);
    if (!e || e.deleted) throw new TunebookError('not-found', `No experiment ${id}`);
    return e;
  };
  const exps = (studyId: number) =>
    [...experiments.values()].filter((e) => e.studyId === studyId && !e.deleted).sort((a, b) => a.position - b.position);
  const renumber = (studyId: number) => exps(studyId).forEach((e, i) => { e.position = i; });
  const strip = <T extends { deleted: boolean }>(o: T): Omit<T, 'deleted'> => { const { deleted: _d, ...rest } = o; return structuredClone(rest); };
  const usedBy = (pid: number) => [...experiments.values()].filter((e) => !e.deleted && e.profileId === pid).length;
  const findConfig = (id: number) => {
    for (const e of experiments.values()) { const c = e.configChanges.find((x) => x.id === id); if (c) return { e, c }; }
    throw new TunebookError('not-found', `No config change ${id}`);
  };
  const findMetric = (id: number) => {
    for (const e of experiments.values()) { const r = e.metrics.find((x) => x.id === id); if (r) return { e, r }; }
    throw new TunebookError('not-found', `No metric ${id}`);
  };

  // Partial: the capture methods are not faked; calling them rejects.
  const methods: Partial<ApiMethods> = {
    notebookInfo: () => ({ path, schemaVersion: 1, appVersion: 'dev' }),
    openNotebook: (p) => { path = p; if (!recent.includes(p)) recent.unshift(p); return { path, schemaVersion: 1, appVersion: 'dev' }; },
    recentNotebooks: () => [...recent],
    listStudies: () => [...studies.values()].filter((s) => !s.deleted).map((s) => ({
      id: s.id, title: s.title, goal: s.goal, experimentCount: exps(s.id).length, updatedAt: s.updatedAt,
    })),
    getStudy: (id) => ({ study: strip(study(id)), experiments: exps(id).map(strip) }),
    createStudy: (input) => {
      if (!input.title.trim()) throw new TunebookError('invalid', 'A study needs a title');
      const s = { id: nextId++, title: input.title, goal: input.goal ?? '', requirements: [], createdAt: now(), updatedAt: now(), deleted: false };
      studies.set(s.id, s); return strip(s);
    },
    updateStudy: (id, patch) => { const s = study(id); Object.assign(s, patch, { updatedAt: now() }); return strip(s); },
    setRequirements: (id, reqs) => { const s = study(id); s.requirements = reqs.map((r) => ({ ...r, id: nextId++ })); return strip(s); },
    deleteStudy: (id) => { study(id).deleted = true; },
    restoreStudy: (id) => { const s = studies.get(id); if (!s) throw new TunebookError('not-found', 'gone'); s.deleted = false; return strip(s); },
    timeline: (studyId) => {
      const s = study(studyId);
      const rows: TimelineRow[] = [];
      const firstBy = new Map<string, number>();
      const prevBy = new Map<string, number>();
      for (const e of exps(studyId)) {
        const p = e.metrics.find((m) => m.primary) ?? null;
        let step: number | null = null; let cum: number | null = null; let meets: boolean | null = null;
        if (p) {
          const prev = prevBy.get(p.name); const first = firstBy.get(p.name);
          if (prev !== undefined && prev !== 0) step = ((p.value - prev) / prev) * 100;
          if (first !== undefined && first !== 0 && prev !== undefined) cum = ((p.value - first) / first) * 100;
          if (first === undefined) firstBy.set(p.name, p.value);
          prevBy.set(p.name, p.value);
          const reqs = s.requirements.filter((r) => r.metric === p.name);
          if (reqs.length) meets = reqs.every((r) => ({ '>=': p.value >= r.threshold, '<=': p.value <= r.threshold, '>': p.value > r.threshold, '<': p.value < r.threshold, '=': p.value === r.threshold })[r.comparator]);
        }
        rows.push({ experimentId: e.id, position: e.position, title: e.title, status: e.status, metric: p?.name ?? null, value: p?.value ?? null, unit: p?.unit ?? null, better: p?.better ?? null, stepChangePercent: step, cumulativeChangePercent: cum, meetsGoal: meets });
      }
      return rows;
    },
    listProfiles: () => [...profiles.values()].map((p) => ({ ...structuredClone(p), usedBy: usedBy(p.id) })),
    createProfile: (input) => {
      const p: HardwareProfile = { id: nextId++, cpuModel: '', cores: null, threads: null, memoryBytes: null, disks: [], os: '', kernel: '', cloud: '', software: '', notes: '', usedBy: 0, ...input };
      profiles.set(p.id, p); return structuredClone(p);
    },
    updateProfile: (id, patch) => { const p = profiles.get(id); if (!p) throw new TunebookError('not-found', 'No profile'); Object.assign(p, patch); return { ...structuredClone(p), usedBy: usedBy(id) }; },
    deleteProfile: (id) => {
      const n = usedBy(id);
      if (n) throw new TunebookError('refused', `The profile is used by ${n} experiment${n === 1 ? '' : 's'}; move them to another profile first.`);
      profiles.delete(id);
    },
    createExperiment: (studyId, input) => {
      study(studyId);
      const e = { id: nextId++, studyId, position: exps(studyId).length, profileId: null, date: new Date().toISOString().slice(0, 10), notes: '', status: 'planned' as const, configChanges: [], metrics: [], createdAt: now(), updatedAt: now(), deleted: false, ...input };
      experiments.set(e.id, e); return strip(e);
    },
    updateExperiment: (id, patch) => { const e = exp(id); Object.assign(e, patch, { updatedAt: now() }); return strip(e); },
    deleteExperiment: (id) => { const e = exp(id); e.deleted = true; renumber(e.studyId); },
    restoreExperiment: (id) => {
      const e = experiments.get(id); if (!e) throw new TunebookError('not-found', 'gone');
      const list = exps(e.studyId); e.deleted = false;
      list.splice(Math.min(e.position, list.length), 0, e); list.forEach((x, i) => { x.position = i; });
      return strip(e);
    },
    moveExperiment: (id, position) => {
      const e = exp(id); const list = exps(e.studyId).filter((x) => x.id !== id);
      list.splice(Math.max(0, Math.min(position, list.length)), 0, e); list.forEach((x, i) => { x.position = i; });
      return list.map(strip);
    },
    addConfigChange: (eid, input) => { const c = { id: nextId++, scope: '', before: '', after: '', why: '', ...input }; exp(eid).configChanges.push(c); return { ...c }; },
    updateConfigChange: (id, patch) => { const { c } = findConfig(id); Object.assign(c, patch); return { ...c }; },
    deleteConfigChange: (id) => { const { e, c } = findConfig(id); e.configChanges = e.configChanges.filter((x) => x !== c); },
    addResultMetric: (eid, input) => {
      const e = exp(eid); const r = { id: nextId++, unit: '', better: 'higher' as const, primary: false, ...input };
      if (r.primary) e.metrics.forEach((x) => { x.primary = false; });
      e.metrics.push(r); return { ...r };
    },
    updateResultMetric: (id, patch) => {
      const { e, r } = findMetric(id);
      if (patch.primary) e.metrics.forEach((x) => { x.primary = false; });
      Object.assign(r, patch); return { ...r };
    },
    deleteResultMetric: (id) => { const { e, r } = findMetric(id); e.metrics = e.metrics.filter((x) => x !== r); },
    search: (q) => {
      const words = q.toLowerCase().split(/\s+/).filter(Boolean);
      if (!words.length) return [];
      const mark = (text: string) => {
        let out = text;
        for (const w of words) out = out.replace(new RegExp(w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), (x) => `\u0002${x}\u0003`);
        return out.slice(0, 160);
      };
      const has = (t: string) => words.every((w) => t.toLowerCase().includes(w));
      const hits: SearchHit[] = [];
      for (const s of studies.values()) if (!s.deleted && has(`${s.title} ${s.goal}`)) hits.push({ kind: 'study', studyId: s.id, experimentId: null, profileId: null, title: s.title, snippet: mark(`${s.title} — ${s.goal}`) });
      for (const e of experiments.values()) {
        if (e.deleted) continue;
        if (has(`${e.title} ${e.notes}`)) hits.push({ kind: 'experiment', studyId: e.studyId, experimentId: e.id, profileId: null, title: e.title, snippet: mark(`${e.title} ${e.notes}`) });
        for (const c of e.configChanges) if (has(`${c.scope} ${c.key} ${c.before} ${c.after} ${c.why}`)) hits.push({ kind: 'config', studyId: e.studyId, experimentId: e.id, profileId: null, title: `${c.key} (${e.title})`, snippet: mark(`${c.scope}: ${c.key} ${c.before} → ${c.after} — ${c.why}`) });
      }
      for (const p of profiles.values()) if (has(`${p.name} ${p.cpuModel} ${p.os} ${p.software} ${p.notes}`)) hits.push({ kind: 'profile', studyId: null, experimentId: null, profileId: p.id, title: p.name, snippet: mark(`${p.name} ${p.os} ${p.software}`) });
      return hits;
    },
  };

  const api = {} as Record<string, unknown>;
  for (const [name, fn] of Object.entries(methods)) {
    api[name] = async (...args: unknown[]) => {
      await new Promise((r) => setTimeout(r, 5));
      return structuredClone((fn as (...a: unknown[]) => unknown)(...args));
    };
  }
  api.on = <E extends keyof ApiEvents>(event: E, l: (p: ApiEvents[E]) => void) => {
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set); set.add(l as (p: unknown) => void);
    return () => set.delete(l as (p: unknown) => void);
  };
  return api as unknown as TunebookApi;
}
