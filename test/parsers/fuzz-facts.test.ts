/** CI fuzz run of the facts parsers (see fuzzSuite.ts, fuzzCore.ts). */
import { group } from '../../shared/capture/parsers/facts/index';
import { fuzzSuite } from './fuzzSuite';

fuzzSuite(group.parsers.map((p) => p.id));
