import type { Rule } from '../types';
import { offer } from '../offers';
import { fail, notApplicable, pass, unknown } from '../types';
import type { CniConfFile } from '../../../shared/model/snapshot';
import { confFileEvidence } from '../evidence';
import { isRuntime, windowsContainerd } from './shared';
import { parsed } from '../derive';

export const windowsCnisockMissing: Rule = {
  id: 'windows.cnisock.missing',
  area: 'windows',
  severity: 'error',
  severityWhen: {
    error: 'the Antrea config is in use',
    warning: 'the Antrea config waits behind another one (a warning ahead of a repair)',
  },
  title: "Antrea's CNI pipe \\\\.\\pipe\\cnisock does not exist",
  firesWhen:
    "the config in use is Antrea (`type: antrea`) and the pipe `\\\\.\\pipe\\cnisock` does not exist (error); an Antrea config the runtime does not use yet (shadowed) and no pipe: a warning — that is what pods get once the config in front of it goes. `cnisock` is Antrea's default pipe (antrea `pkg/cni/default_windows.go`); an agent whose antrea-agent.conf sets `cniSocket` to another pipe is not read by this check: its evidence says so",
  repair: {
    kind: 'auto',
    text: 'start or restart the `antrea-agent` service (after `ovs-vswitchd`, when present)',
  },
  platforms: ['windows'],
  kb: [
    'docs/knowledge/windows-containerd.md#the-case-that-started-it-antrea-loses-to-a-nat-config',
    'docs/knowledge/windows-cni-agents.md#antrea',
  ],
  evaluate(ctx) {
    const rt = windowsContainerd(ctx);
    if (!isRuntime(rt)) return rt;
    if (!rt.load) return unknown(`${rt.label}'s CNI conf dir could not be listed`);
    const isAntrea = (f: CniConfFile): boolean =>
      parsed(f)?.ok === true &&
      (parsed(f) as { plugins: { type: string }[] }).plugins.some(
        (p) => p.type.toLowerCase() === 'antrea',
      );
    const inUse = rt.load.inUse.find(isAntrea);
    // Not in use yet but waiting behind another config (antrea#1581: nat sorts first): the pipe
    // matters the moment that config goes, so a missing pipe is a forward warning, never a pass.
    const waiting = inUse ? undefined : rt.load.valid.find(isAntrea);
    const antrea = inUse ?? waiting;
    if (!antrea) return notApplicable(`no Antrea config in ${rt.label}'s CNI conf dir`);
    const pipes = ctx.snapshot.windows?.pipes;
    if (!pipes || !pipes.known)
      return unknown(
        `named pipes could not be listed${pipes && !pipes.known ? `: ${pipes.reason}` : ''}`,
      );
    if (pipes.value.some((p) => p.toLowerCase() === 'cnisock')) return pass();
    const services = ctx.snapshot.services.known ? ctx.snapshot.services.value : [];
    const agent = services.find((x) => x.name.toLowerCase() === 'antrea-agent');
    const ovs = services.find((x) => x.name.toLowerCase() === 'ovs-vswitchd');
    const state = agent ? ` (service ${agent.state})` : '';
    return fail({
      severity: inUse ? 'error' : 'warning',
      runtime: rt.label,
      title: inUse
        ? `antrea-agent is not listening on \\\\.\\pipe\\cnisock${state}`
        : `${antrea.name} is not in use yet, and antrea-agent is not listening on \\\\.\\pipe\\cnisock${state}`,
      summary: `${inUse ? `${rt.label} uses ${antrea.name}` : `${rt.label} does not use ${antrea.name} now (another config comes first), but pods get it as soon as that config goes`}; antrea.exe forwards every CNI call to antrea-agent over \\\\.\\pipe\\cnisock and fails at once ("Error while dialing open \\\\.\\pipe\\cnisock: The system cannot find the file specified") while the agent is down, so no pod gets a network.`,
      evidence: [
        confFileEvidence(antrea),
        {
          kind: 'text',
          text: `pipes under \\\\.\\pipe\\: ${pipes.value.length} found, no "cnisock"`,
        },
        {
          kind: 'text',
          text: "cnisock is Antrea's default; if antrea-agent.conf sets cniSocket to another pipe, look for that one instead (this check does not read the agent's config)",
        },
        ...(agent
          ? [
              {
                kind: 'text' as const,
                text: `service antrea-agent: ${agent.state}${ovs ? `; ovs-vswitchd: ${ovs.state}` : ''}`,
              },
            ]
          : []),
      ],
      repairs: [
        offer(
          'antrea-restart',
          ovs && ovs.state !== 'missing'
            ? 'Start ovs-vswitchd, then restart antrea-agent'
            : 'Restart antrea-agent',
          {},
        ),
      ],
    });
  },
};
