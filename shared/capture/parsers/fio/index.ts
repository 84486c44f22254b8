import type { ParserGroup } from '../../types';

export const group: ParserGroup = { parsers: [], rules: [] };
