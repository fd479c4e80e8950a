/**
 * `npm run docs:rules`: writes docs/rules.md from the rule catalog (the same text as
 * `cni-doctor rules --markdown`), without a build and without truncating the file on failure.
 */
import { writeFileSync } from 'node:fs';
import { rulesMarkdown } from '../app/cli/commands/rules-doc';

writeFileSync(new URL('../docs/rules.md', import.meta.url), rulesMarkdown() + '\n');
