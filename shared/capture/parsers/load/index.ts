import type { ParserGroup } from '../../types';
import { ab } from './ab';
import { wrk } from './wrk';
import { hey } from './hey';
import { locust } from './locust';
import { redisBenchmark } from './redisBenchmark';
import { sysbench } from './sysbench';
import { rules } from './rules';

export const group: ParserGroup = { parsers: [ab, wrk, hey, locust, redisBenchmark, sysbench], rules };
