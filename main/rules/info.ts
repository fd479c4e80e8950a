/** The rule catalog as the doors show it (`rules --json`, the UI's Checks screen, docs/rules.md). */
import type { RuleInfo } from '../../shared/model/finding';
import { ALL_RULES } from './catalog';

export function ruleInfos(): RuleInfo[] {
  return ALL_RULES.map(
    ({ id, area, severity, severityWhen, title, firesWhen, repair, platforms }) => ({
      id,
      area,
      severity,
      ...(severityWhen && { severityWhen: { ...severityWhen } }),
      title,
      firesWhen,
      repair: { ...repair },
      platforms: [...platforms],
    }),
  );
}
