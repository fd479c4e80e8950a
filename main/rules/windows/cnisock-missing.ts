import type { Rule } from '../types';
import { offer } from '../offers';
import { fail, pass, unknown } from '../types';
import { confFileEvidence } from '../evidence';
import { isRuntime, windowsContainerd } from './shared';
import { parsed } from '../derive';

export const windowsCnisockMissing: Rule = {
  id: 'windows.cnisock.missing',
  area: 'windows',
  severity: 'error',
  title: "Antrea's CNI pipe \\\\.\\pipe\\cnisock does not exist",
  firesWhen:
    'the config in use is Antrea (`type: antrea`) and the pipe `\\\\.\\pipe\\cnisock` does not exist',
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
    const antrea = rt.load.inUse.find(
      (f) =>
        parsed(f)?.ok &&
        (parsed(f) as { plugins: { type: string }[] }).plugins.some(
          (p) => p.type.toLowerCase() === 'antrea',
        ),
    );
    if (!antrea) return pass();
    const pipes = ctx.snapshot.windows?.pipes;
    if (!pipes || !pipes.known)
      return unknown(
        `named pipes could not be listed${pipes && !pipes.known ? `: ${pipes.reason}` : ''}`,
      );
    if (pipes.value.some((p) => p.toLowerCase() === 'cnisock')) return pass();
    const services = ctx.snapshot.services.known ? ctx.snapshot.services.value : [];
    const agent = services.find((x) => x.name.toLowerCase() === 'antrea-agent');
    const ovs = services.find((x) => x.name.toLowerCase() === 'ovs-vswitchd');
    return fail({
      severity: 'error',
      runtime: rt.label,
      title: `antrea-agent is not listening on \\\\.\\pipe\\cnisock${agent ? ` (service ${agent.state})` : ''}`,
      summary: `${rt.label} uses ${antrea.name}; antrea.exe forwards every CNI call to antrea-agent over \\\\.\\pipe\\cnisock and fails at once ("Error while dialing open \\\\.\\pipe\\cnisock: The system cannot find the file specified") while the agent is down, so no pod gets a network.`,
      evidence: [
        confFileEvidence(antrea),
        {
          kind: 'text',
          text: `pipes under \\\\.\\pipe\\: ${pipes.value.length} found, no "cnisock"`,
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
