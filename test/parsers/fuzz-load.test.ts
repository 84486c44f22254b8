/** CI fuzz run of the load-generator parsers and fio (see fuzzSuite.ts, fuzzCore.ts). */
import { group as load } from '../../shared/capture/parsers/load/index';
import { group as fio } from '../../shared/capture/parsers/fio/index';
import { fuzzSuite } from './fuzzSuite';

fuzzSuite([...load.parsers, ...fio.parsers].map((p) => p.id));
