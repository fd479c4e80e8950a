import { ArgError, JSON_FLAG, defineCommand } from '../command';

export const rulesCommand = defineCommand({
  name: 'rules',
  summary: 'list every check the doctor runs',
  flags: {
    ...JSON_FLAG,
    markdown: { type: 'boolean', help: 'print the rule reference (docs/rules.md)' },
  },
  async run({ flags }, io) {
    if (flags.json && flags.markdown) throw new ArgError('use either --json or --markdown');
    // The catalogue loads every rule: only when this command runs, not at CLI start-up.
    const { ALL_RULES, ruleInfos, rulesMarkdown, severityList } = await import('./rules-doc');
    if (flags.json) io.out(JSON.stringify({ rules: ruleInfos() }, null, 2));
    else if (flags.markdown) io.out(rulesMarkdown());
    // The severities a scan can print for the rule (error/warning), not only the highest.
    else
      for (const r of ALL_RULES)
        io.out(`${r.id.padEnd(36)} ${severityList(r).padEnd(13)} ${r.title}`);
    return 0;
  },
});
