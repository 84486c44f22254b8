import type { ParserGroup } from '../../types';
import { sysctl } from './sysctl';
import { ulimit } from './ulimit';
import { ini } from './ini';
import { ss } from './ss';
import { netstat } from './netstat';
import { rules } from './rules';

export { diffSettings } from './diff';
export type { SettingChange } from './diff';

export const group: ParserGroup = { parsers: [sysctl, ulimit, ini, ss, netstat], rules };
