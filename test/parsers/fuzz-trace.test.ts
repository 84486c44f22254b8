/** CI fuzz run of the trace parsers (see fuzzSuite.ts, fuzzCore.ts). */
import { group } from '../../shared/capture/parsers/trace/index';
import { fuzzSuite } from './fuzzSuite';

fuzzSuite(group.parsers.map((p) => p.id));
