import type { ParserGroup } from '../../types';
import { ab } from './ab';
import { wrk } from './wrk';
import { rules } from './rules';

export const group: ParserGroup = { parsers: [ab, wrk], rules };
