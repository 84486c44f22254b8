/**
 * The back end's dispatch is typed (issue 10): BackendApi gives every contract method its own
 * arguments and result, so a wrong call fails to compile (`npm run typecheck` compiles this file),
 * and the one untyped entry, Backend.call, serves contract methods only.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Backend, type BackendApi } from '../../electron/services/backend';
import { API_METHODS } from '../../shared/api';
import type { Study, StudyDetail } from '../../shared/model';
import { useTempDir } from '../helpers';

/** Never run: what the compiler refuses. Each line would compile if the dispatch were `(method: string, args: unknown[]) => unknown`. */
export function wrongCalls(api: BackendApi): void {
  // @ts-expect-error a study id is a number
  api.getStudy('3');
  // @ts-expect-error createStudy takes the new study's fields
  api.createStudy('title');
  // @ts-expect-error the result of getStudy is a StudyDetail, not a Study
  const s: Study = api.getStudy(1);
  // @ts-expect-error parsing runs in a worker: its result is a Promise
  const first: { kind: string } | undefined = api.parseCaptureText('a.txt', 'x')[0];
  // @ts-expect-error no such method
  api.dropNotebook();
  const ok: StudyDetail = api.getStudy(1);
  void s; void ok; void first;
}

describe('typed dispatch', () => {
  const tmp = useTempDir();
  it('serves every contract method, and nothing else by name', async () => {
    const backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp() });
    try {
      expect(Object.keys(backend.api).sort()).toEqual([...API_METHODS].sort());
      for (const name of ['constructor', '__proto__', 'call', 'close', 'toString', 'api', 'own']) {
        expect(() => backend.call(name, [])).toThrow(`unknown method "${name}"`);
      }
      const study = backend.api.createStudy({ title: 'typed' });
      expect(backend.call('getStudy', [study.id])).toEqual(backend.api.getStudy(study.id));
      expect(() => backend.call('getStudy', ['1; DROP TABLE study'])).toThrow(/study id/);
    } finally {
      backend.close();
    }
  });
});
