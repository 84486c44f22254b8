import type { ParserGroup } from '../../types';
import { fioParser } from './fio';
import { rules } from './rules';

export const group: ParserGroup = { parsers: [fioParser], rules };
