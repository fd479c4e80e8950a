/**
 * The node the window is about, in words: "Node: <name> via <transport>". Every screen, the
 * export, the history and the repair texts name it, so nobody repairs or exports a node they did
 * not mean (issue 22: the first screen used to diagnose the laptop while a kind node was open).
 */
import type { ScanRequest, ScanResponse } from '../../../shared/api';
import { sourceKey } from '../../../shared/source-key';
import { isRemoteTarget, nodeNameOf, parseTarget } from '../../../shared/target';

export interface NodeFocus {
  /** The node's own name: a node container's or Kubernetes node's name, else its hostname. */
  name: string;
  /** How it is reached or where its facts come from: `podman exec`, `this machine`, a bundle. */
  via: string;
}

/** A target's node name and transport from its one-line form alone (before its scan answers). */
function targetFocus(targetId: string): NodeFocus {
  const parsed = parseTarget(targetId);
  if (!parsed.ok) return { name: targetId, via: 'a target' };
  const t = parsed.target;
  if (t.kind === 'winrm' || t.kind === 'pssession')
    return {
      name: nodeNameOf(t),
      via: `PowerShell remoting over ${t.kind === 'winrm' ? 'WinRM' : 'SSH'} (${targetId})`,
    };
  if (!isRemoteTarget(t)) return { name: targetId, via: t.kind };
  const via =
    t.kind === 'container' ? `${t.engine} exec` : t.kind === 'ssh' ? 'ssh' : 'kubectl debug pod';
  return { name: nodeNameOf(t), via: `${via} (${targetId})` };
}

/**
 * What to call the node of `source`; `scan` (when it answered) adds the hostname and the
 * transport the engine reports. Undefined: no node is chosen yet.
 */
export function nodeFocus(
  source: ScanRequest | undefined,
  scan: ScanResponse | undefined,
): NodeFocus | undefined {
  if (!source) return undefined;
  const host = scan?.report.node.hostname;
  const same = scan !== undefined && sameSource(scan.request, source);
  if (source.source === 'target') {
    const f = targetFocus(source.targetId);
    const transport = same ? scan.report.target?.transport : undefined;
    return transport ? { ...f, via: `${transport} (${source.targetId})` } : f;
  }
  const label = same ? scan.label : undefined;
  if (source.source === 'live') {
    // `serve --root DIR`: the node disk, not the machine serve runs on.
    const disk = label !== undefined && label !== 'live node' ? label : undefined;
    return { name: (same && host) || disk || 'this machine', via: disk ?? 'this machine' };
  }
  if (source.source === 'demo')
    return { name: (same && host) || 'demo node', via: label ?? 'a demo recording' };
  return { name: (same && host) || 'recorded node', via: label ? `bundle ${label}` : 'a bundle' };
}

function sameSource(a: ScanRequest, b: ScanRequest): boolean {
  return sourceKey(a) === sourceKey(b);
}

/** The node in a sentence: "kind-control-plane (via podman exec (…))", or just "this machine". */
export function nodeWords(f: NodeFocus): string {
  return f.name === f.via ? f.name : `${f.name} (via ${f.via})`;
}

/** One line: "Node: kind-control-plane via podman exec (container:podman/kind-control-plane)". */
export function nodeLine(f: NodeFocus): string {
  return `Node: ${f.name} via ${f.via}`;
}
