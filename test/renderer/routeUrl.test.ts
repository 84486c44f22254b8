/** The route in the URL's fragment: Back, Forward, a reload and a bookmark find the same view. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Route } from '../../renderer/src/app/AppContext';
import { routeFromHash, routeToHash, sameView } from '../../renderer/src/app/routeUrl';

const id = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
const maybe = fc.option(id, { nil: null });
const route: fc.Arbitrary<Route> = fc.oneof(
  fc.constant<Route>({ name: 'home' }),
  fc.record({ name: fc.constant('study' as const), studyId: id }),
  fc.record({ name: fc.constant('study' as const), studyId: id, experimentId: id }),
  fc.constant<Route>({ name: 'profiles' }),
  fc.record({ name: fc.constant('profiles' as const), profileId: id }),
  fc.constant<Route>({ name: 'captures' }),
  fc.record({ name: fc.constant('capture' as const), captureId: id, experimentId: maybe }, { requiredKeys: ['name', 'captureId', 'experimentId'] }),
  fc.record({ name: fc.constant('capture' as const), captureId: id, experimentId: maybe, line: id, tab: fc.constantFrom('figures' as const, 'raw' as const, 'charts' as const) }),
  fc.record({ name: fc.constant('compare' as const), a: maybe, b: maybe }),
  fc.constant<Route>({ name: 'trash' }),
);

describe('routeUrl', () => {
  it('reads back every route it writes', () => {
    fc.assert(fc.property(route, (r) => {
      const hash = routeToHash(r);
      expect(hash.startsWith('#/')).toBe(true);
      expect(routeFromHash(hash)).toEqual(r);
    }), { numRuns: 2000 });
  });

  it('writes the views as short, readable fragments', () => {
    expect(routeToHash({ name: 'home' })).toBe('#/');
    expect(routeToHash({ name: 'study', studyId: 12, experimentId: 34 })).toBe('#/study/12/experiment/34');
    expect(routeToHash({ name: 'study', studyId: 12, experimentId: null })).toBe('#/study/12');
    expect(routeToHash({ name: 'compare', a: 3, b: 9 })).toBe('#/compare?a=3&b=9');
    expect(routeToHash({ name: 'compare', a: 3, b: null })).toBe('#/compare?a=3');
    expect(routeToHash({ name: 'capture', captureId: 7, experimentId: 34, line: 120, tab: 'raw' })).toBe('#/capture/7?experiment=34&line=120&tab=raw');
    expect(routeFromHash('')).toEqual({ name: 'home' });
    expect(routeFromHash('#/study/12/')).toEqual({ name: 'study', studyId: 12 });
  });

  it('reads anything else as home: no id that is not a positive whole number, no unknown view or tab', () => {
    for (const h of ['#/study', '#/study/0', '#/study/-1', '#/study/1.5', '#/study/1e3', '#/study/12abc', '#/study/99999999999999999',
      '#/study/1/experiment', '#/study/1/experiment/x', '#/study/1/foo/2', '#/study/1/experiment/2/more', '#/nope', '#/captures/1',
      '#/capture/x', '#/capture/1/2', '#/profiles/a', '#/trash/1', '#/compare/1', '#/%E0%A4%A', '#/study/<script>']) {
      expect(routeFromHash(h), h).toEqual({ name: 'home' });
    }
    // what a query cannot be read as is left out, not guessed
    expect(routeFromHash('#/capture/7?experiment=x&line=-3&tab=<b>')).toEqual({ name: 'capture', captureId: 7, experimentId: null });
    expect(routeFromHash('#/compare?a=1&b=two')).toEqual({ name: 'compare', a: 1, b: null });
  });

  it('replaces the history entry within one view, adds one when the view changes', () => {
    expect(sameView({ name: 'study', studyId: 1, experimentId: 2 }, { name: 'study', studyId: 1, experimentId: 3 })).toBe(true);
    expect(sameView({ name: 'study', studyId: 1 }, { name: 'study', studyId: 2 })).toBe(false);
    expect(sameView({ name: 'capture', captureId: 1, experimentId: 2 }, { name: 'capture', captureId: 1, experimentId: 2, tab: 'raw' })).toBe(true);
    expect(sameView({ name: 'capture', captureId: 1, experimentId: 2 }, { name: 'capture', captureId: 5, experimentId: 2 })).toBe(false);
    expect(sameView({ name: 'compare', a: 1, b: null }, { name: 'compare', a: 1, b: 2 })).toBe(true);
    expect(sameView({ name: 'study', studyId: 1 }, { name: 'compare', a: 1, b: null })).toBe(false);
  });
});
