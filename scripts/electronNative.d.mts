// Types for scripts/electronNative.mjs (used by test/electron/startScript.test.ts).
export declare const MISSING_BINARY_MESSAGE: string;
export type BinaryStatus = { ok: true; path: string } | { ok: false; reason: string };
export declare function electronBinaryStatus(requireElectron: () => unknown, exists?: (p: string) => boolean): BinaryStatus;
export declare function requireElectronFrom(root: string): () => unknown;
export declare function packageVersion(root: string, name: string): string;
export interface NativeCachePaths { dir: string; moduleDir: string; binding: string; stamp: string }
export declare function nativeCachePaths(root: string, o: { electronVersion: string; platform?: string; arch?: string }): NativeCachePaths;
export declare function cachedBindingIsCurrent(paths: NativeCachePaths, sqliteVersion: string, exists?: (p: string) => boolean): boolean;
export interface RebuildArgs { buildPath: string; electronVersion: string; onlyModules: string[]; force: boolean; mode: string }
export declare function ensureElectronSqlite(root: string, opts?: {
  log?: (m: string) => void;
  electronVersion?: string;
  rebuild?: (o: RebuildArgs) => Promise<unknown>;
}): Promise<string>;
export declare function electronEnv(baseEnv: Record<string, string | undefined>, binding: string): Record<string, string | undefined>;
