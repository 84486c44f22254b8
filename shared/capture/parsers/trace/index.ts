import type { ParserGroup } from '../../types';
import { topParser } from './top';
import { procInterruptsParser } from './procInterrupts';
import { straceSummaryParser } from './straceSummary';
import { straceLogParser } from './straceLog';
import { perfStatParser } from './perfStat';
import { perfReportParser } from './perfReport';
import { perfScriptParser } from './perfScript';
import { perfRecordParser } from './perfRecord';
import { rules } from './rules';

export const group: ParserGroup = {
  parsers: [topParser, procInterruptsParser, straceSummaryParser, straceLogParser, perfStatParser, perfReportParser, perfScriptParser, perfRecordParser],
  rules,
};
