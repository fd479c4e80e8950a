import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RuleInfo } from '../../../shared/model/finding';
import { runCli } from '../run-cli.testutil';
import { rulesMarkdown, ruleInfos } from './rules-doc';

describe('rules catalog', () => {
  it('docs/rules.md is generated from the catalog (run `npm run docs:rules` when this fails)', () => {
    const onDisk = readFileSync(new URL('../../../docs/rules.md', import.meta.url), 'utf8');
    expect(onDisk.trimEnd()).toBe(rulesMarkdown().trimEnd());
  });

  // The rule ids of the first published contract (docs/rules.md: ids never change meaning). A
  // script or dashboard keyed on one of them must keep finding it.
  const PUBLISHED = [
    'cni.conf.none',
    'cni.conf.invalid',
    'cni.conf.multiple',
    'cni.conf.shadowed-by-default',
    'cni.plugin.missing',
    'cni.dir.mismatch',
    'cni.version.unsupported',
    'containerd.cri.disabled',
    'containerd.config.invalid',
    'containerd.config.wrong-schema',
    'crio.network.default-missing',
    'cri.socket.multiple',
    'cri.endpoint.missing',
    'cri.endpoint.unreachable',
    'cri.crictl.mismatch',
    'cri.network.not-ready',
    'kubelet.flags.removed',
    'kubelet.cgroup-driver.mismatch',
    'hns.network.missing',
    'hns.endpoint.stale',
    'windows.cnisock.missing',
    'windows.netns.unsupported',
    'windows.containerd.unsupported-k8s',
  ];

  it('keeps every published rule id', () => {
    const ours = new Set(ruleInfos().map((r) => r.id));
    for (const id of PUBLISHED) expect(ours.has(id), id).toBe(true);
  });

  it('has unique ids', () => {
    const ids = ruleInfos().map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('cni-doctor rules (text)', () => {
  // Newcomer review, README item 4: the list said warning where scans printed INFO, error where
  // they printed WARNING. It now lists every severity a finding of the rule can have.
  it('lists the severities scans print, from the rules’ own declaration', async () => {
    const { code, out } = await runCli('rules');
    expect(code).toBe(0);
    const line = (id: string) => out.split('\n').find((l) => l.startsWith(`${id} `)) ?? '';
    expect(line('cni.conf.multiple')).toMatch(/^cni\.conf\.multiple\s+warning\/info\s/);
    expect(line('cni.plugin.missing')).toMatch(/^cni\.plugin\.missing\s+error\/warning\s/);
    expect(line('cni.conf.shadowed-by-default')).toMatch(/\s(error|warning|info)\s{2,}\S/);
  });

  it('--json carries when each severity applies', async () => {
    const { out } = await runCli('rules', '--json');
    const rules = (JSON.parse(out) as { rules: RuleInfo[] }).rules;
    const multiple = rules.find((r) => r.id === 'cni.conf.multiple');
    expect(multiple?.severity).toBe('warning');
    expect(Object.keys(multiple?.severityWhen ?? {}).sort()).toEqual(['info', 'warning']);
  });
});
