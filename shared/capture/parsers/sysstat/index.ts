import type { ParserGroup } from '../../types';
import { iostat } from './iostat';
import { vmstat } from './vmstat';
import { pidstat } from './pidstat';
import { mpstat } from './mpstat';
import { sar } from './sar';
import { sadfCsv, sadfJson } from './sadf';
import { rules } from './rules';

export const group: ParserGroup = { parsers: [iostat, vmstat, pidstat, mpstat, sar, sadfCsv, sadfJson], rules };
