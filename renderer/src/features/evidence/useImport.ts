import { createContext, useContext } from 'react';
import type { BundleImportResult, ExportOptions, ExportResult, ImportResult } from '../../../../shared/model';

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
  /** export a study (File › Export…): undefined when it failed, was cancelled or the Save dialog was closed (said so) */
  exportStudy: (studyId: number, options: ExportOptions) => Promise<ExportResult | undefined>;
  /** import a bundle (.eln): a chosen File (uploaded in browser mode) or a path from the desktop menu */
  importBundle: (source: { file: File } | { path: string }) => Promise<BundleImportResult | undefined>;
  /** an import, upload, re-parse, compaction or export is under way */
  busy: boolean;
}

export const ImportContext = createContext<ImportApi | null>(null);

export function useImport(): ImportApi {
  const ctx = useContext(ImportContext);
  if (!ctx) throw new Error('useImport outside ImportProvider');
  return ctx;
}
