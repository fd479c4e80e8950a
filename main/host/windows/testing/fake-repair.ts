/**
 * Teaches a FakeWindowsNode the repair side: it answers the scripts build-repair-script.ts builds
 * the way repair-step.ps1 would on that node (same checks, same refusals, same result line), and
 * the service-status query of main/repairs/services/powershell.ts. Changes land in the node's
 * HNS lists, services and pipes, so the next collection (a verification rescan) sees them.
 */
import type { RunResult } from '../powershell-session';
import { decodePayload, type FakeWindowsNode } from './fake-node';

type Obj = Record<string, unknown>;

export interface FakeRepairOptions {
  /** After a service (re)start: e.g. antrea-agent opens \\.\pipe\cnisock. */
  onStart?: (node: FakeWindowsNode, service: string) => void;
  /** Make a step fail as HNS would (the error text goes to stderr). */
  fail?: (cmdlet: string) => string | undefined;
}

const strings = (v: unknown): string[] =>
  v === undefined || v === null ? [] : Array.isArray(v) ? v.map(String) : [String(v)];
const ok = (result: Obj): RunResult => ({ ok: true, stdout: `${JSON.stringify(result)}\r\n` });
const refuse = (message: string): RunResult => ({ ok: false, kind: 'stderr', message });

let created = 0;

export function attachRepairs(
  node: FakeWindowsNode,
  opts: FakeRepairOptions = {},
): FakeWindowsNode {
  node.other = async (script) => {
    if (script.includes('# cni-doctor: one allow-listed repair step')) {
      const { cmdlet, params } = decodePayload(script) as { cmdlet: string; params: Obj };
      const failure = opts.fail?.(cmdlet);
      if (failure !== undefined) return refuse(failure);
      return step(node, cmdlet, params, opts);
    }
    // main/repairs/services/powershell.ts serviceStatus: the name is the one base64 literal.
    const b64 = /FromBase64String\('([A-Za-z0-9+/=]*)'\)/.exec(script)?.[1];
    if (b64 !== undefined && script.includes('Get-Service -Name $n')) {
      const name = JSON.parse(Buffer.from(b64, 'base64').toString('utf8')) as string;
      const s = node.services.find((x) => x.name.toLowerCase() === name.toLowerCase());
      return { ok: true, stdout: s?.state !== undefined ? `${s.state}\r\n` : '' };
    }
    return refuse('the fake node does not know this script');
  };
  return node;
}

function step(node: FakeWindowsNode, cmdlet: string, p: Obj, opts: FakeRepairOptions): RunResult {
  const hns = node.hns;
  switch (cmdlet) {
    case 'New-HnsNetwork': {
      const name = String(p.Name);
      const same = (hns.networks as Obj[]).find(
        (n) => String(n.Name).toLowerCase() === name.toLowerCase(),
      );
      if (same)
        return refuse(
          `an HNS network named ${name} already exists (${String(same.ID)}); nothing was created`,
        );
      const prefixes = strings(p.AddressPrefix);
      const gateways = strings(p.Gateway);
      const id = `0F0E0D0C-0B0A-4909-8807-${(++created).toString(16).padStart(12, '0').toUpperCase()}`;
      hns.networks.push({
        ID: id,
        Name: name,
        Type: 'NAT',
        Flags: 0,
        State: 1,
        Subnets: prefixes.map((a, i) => ({
          AddressPrefix: a,
          ...(gateways[i] !== undefined && { GatewayAddress: gateways[i] }),
        })),
      });
      return ok({ step: cmdlet, id, name });
    }
    case 'Remove-HnsNetwork': {
      const id = String(p.Id).toLowerCase();
      const at = (hns.networks as Obj[]).findIndex((n) => String(n.ID).toLowerCase() === id);
      if (at < 0) return ok({ step: cmdlet, id: p.Id, removed: false });
      const found = hns.networks[at] as Obj;
      if (String(found.Name).toLowerCase() !== String(p.Name).toLowerCase())
        return refuse(
          `network ${String(p.Id)} is now named ${String(found.Name)}, not ${String(p.Name)}; it was not removed`,
        );
      hns.networks.splice(at, 1);
      return ok({ step: cmdlet, id: p.Id, removed: true });
    }
    case 'Remove-HnsEndpoint': {
      const ids = strings(p.Id);
      const endpoints = hns.endpoints as Obj[];
      const absent: string[] = [];
      for (const id of ids) {
        const e = endpoints.find((x) => String(x.ID).toLowerCase() === id.toLowerCase());
        if (!e) absent.push(id);
        else if (
          e.IsRemoteEndpoint === true ||
          /_ep$/i.test(String(e.Name)) ||
          /source.?vip/i.test(String(e.Name))
        ) {
          return refuse(
            `endpoint ${id} (${String(e.Name)}) is a remote, host or source-VIP endpoint; nothing was removed`,
          );
        }
      }
      const gone = new Set(ids.map((x) => x.toLowerCase()));
      node.hns.endpoints = endpoints.filter((x) => !gone.has(String(x.ID).toLowerCase()));
      return ok({ step: cmdlet, removed: ids.filter((x) => !absent.includes(x)), absent });
    }
    case 'Start-Service':
    case 'Restart-Service': {
      const name = String(p.Name);
      const s = node.services.find((x) => x.name.toLowerCase() === name.toLowerCase());
      if (!s || s.state === undefined) return refuse(`service ${name} does not exist`);
      const was = s.state;
      s.state = 'Running';
      opts.onStart?.(node, s.name);
      return ok({ step: cmdlet, name: s.name, was });
    }
    default:
      return refuse(`not an allowed repair step: ${cmdlet}`);
  }
}
