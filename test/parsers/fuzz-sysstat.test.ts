/** CI fuzz run of the sysstat parsers (see fuzzSuite.ts, fuzzCore.ts). */
import { group } from '../../shared/capture/parsers/sysstat/index';
import { fuzzSuite } from './fuzzSuite';

fuzzSuite(group.parsers.map((p) => p.id));
