import { createContext, useContext } from 'react';
import type { ImportResult } from '../../../../shared/model';

/** What to store on an experiment: dropped or chosen files, files on the host (Electron's menu), or pasted text. */
export type Intake =
  | { files: File[] }
  | { paths: string[] }
  | { text: string; name: string };

export interface ImportApi {
  /**
   * Store captures on an experiment, with progress shown and a Cancel, and a message when done.
   * Resolves with the result (undefined when the call failed as a whole; the error was shown).
   */
  importInto: (experimentId: number, intake: Intake, opts?: { kind?: string }) => Promise<ImportResult | undefined>;
  /** parse every stored capture again (File › Re-parse All Captures) */
  reparseAll: () => Promise<void>;
  /** give the space of removed captures back (VACUUM) */
  compact: () => Promise<void>;
  /** an import, upload, re-parse or compaction is under way */
  busy: boolean;
}

export const ImportContext = createContext<ImportApi | null>(null);

export function useImport(): ImportApi {
  const ctx = useContext(ImportContext);
  if (!ctx) throw new Error('useImport outside ImportProvider');
  return ctx;
}
