/**
 * The route as the window's URL fragment, so that the back and forward buttons (Alt+← / Alt+→ in
 * the desktop app), a reload and a bookmark in browser mode find the same view:
 *
 *   #/                           home
 *   #/study/12/experiment/34     a study, one of its experiments selected
 *   #/profiles/5  #/captures  #/trash
 *   #/capture/7?experiment=34&line=120&tab=raw
 *   #/compare?a=3&b=9            two experiments side by side
 *
 * Read strictly: ids are positive whole numbers, and anything else is the home view (a stale
 * bookmark of a deleted study opens the study's own "not found").
 */
import type { CaptureTab, Route } from './AppContext';

const TABS: readonly CaptureTab[] = ['figures', 'raw', 'charts'];

/** "12" → 12; anything but a positive whole number (safe) → null */
function id(s: string | null | undefined): number | null {
  if (s === null || s === undefined || !/^[1-9]\d{0,15}$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : null;
}

function query(params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The fragment of a route (with its "#"). */
export function routeToHash(r: Route): string {
  switch (r.name) {
    case 'home': return '#/';
    case 'study': return `#/study/${r.studyId}${r.experimentId ? `/experiment/${r.experimentId}` : ''}`;
    case 'profiles': return `#/profiles${r.profileId ? `/${r.profileId}` : ''}`;
    case 'captures': return '#/captures';
    case 'capture': return `#/capture/${r.captureId}${query({ experiment: r.experimentId, line: r.line, tab: r.tab })}`;
    case 'compare': return `#/compare${query({ a: r.a, b: r.b })}`;
    case 'trash': return '#/trash';
  }
}

/** The route a fragment names (location.hash: "#/study/12", or "" for none); home when it names none. */
export function routeFromHash(hash: string): Route {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  const qAt = h.indexOf('?');
  const path = (qAt < 0 ? h : h.slice(0, qAt)).split('/').filter(Boolean);
  let q: URLSearchParams;
  try { q = new URLSearchParams(qAt < 0 ? '' : h.slice(qAt + 1)); } catch { q = new URLSearchParams(); }
  const home: Route = { name: 'home' };
  const [name, first, second, third] = path;
  switch (name) {
    case 'study': {
      const studyId = id(first);
      if (studyId === null || path.length > 4) return home;
      if (second === undefined) return path.length === 2 ? { name: 'study', studyId } : home;
      const experimentId = second === 'experiment' ? id(third) : null;
      return experimentId === null ? home : { name: 'study', studyId, experimentId };
    }
    case 'profiles': {
      if (path.length > 2) return home;
      if (first === undefined) return { name: 'profiles' };
      const profileId = id(first);
      return profileId === null ? home : { name: 'profiles', profileId };
    }
    case 'captures': return path.length === 1 ? { name: 'captures' } : home;
    case 'trash': return path.length === 1 ? { name: 'trash' } : home;
    case 'capture': {
      const captureId = id(first);
      if (captureId === null || path.length > 2) return home;
      const r: Route = { name: 'capture', captureId, experimentId: id(q.get('experiment')) };
      const line = id(q.get('line'));
      if (line !== null) r.line = line;
      const tab = q.get('tab');
      if (tab !== null && (TABS as readonly string[]).includes(tab)) r.tab = tab as CaptureTab;
      return r;
    }
    case 'compare': return path.length === 1 ? { name: 'compare', a: id(q.get('a')), b: id(q.get('b')) } : home;
    default: return home;
  }
}

/**
 * Whether going from one route to the other stays in the same view (another experiment of the
 * same study, another capture tab, the other side of a comparison): the history entry is then
 * replaced, not added, so that Back leaves the view rather than stepping through every selection.
 */
export function sameView(a: Route, b: Route): boolean {
  if (a.name !== b.name) return false;
  if (a.name === 'study' && b.name === 'study') return a.studyId === b.studyId;
  if (a.name === 'capture' && b.name === 'capture') return a.captureId === b.captureId;
  return true;
}
