import type { FindingRule } from '../../types';
export const rules: FindingRule[] = [];
