/** Windows rules (rules.md "Windows"). */
import type { Rule } from '../types';

export const WINDOWS_RULES: readonly Rule[] = [];
