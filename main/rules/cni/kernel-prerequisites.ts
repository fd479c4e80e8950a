/**
 * The kernel settings the CNI in use needs (kubeadm's preflight checks the same files):
 * net.ipv4.ip_forward = 1 for any pod network; br_netfilter loaded and
 * net.bridge.bridge-nf-call-iptables = 1 when pods sit on a Linux bridge (bridge, flannel), or
 * Service traffic between pods on one bridge bypasses kube-proxy's iptables rules; and IPv6
 * enabled when the config asks for IPv6 addresses (docs/knowledge/node-layouts.md#kernel-settings-pod-networking-needs).
 */
import type { FindingDraft, Rule } from '../types';
import { fail, notApplicable, unknown } from '../types';
import { parsed } from '../derive';
import { confFileEvidence } from '../evidence';
import { judgedRuntimes, isOutcome } from './shared';
import { KERNEL_PATHS } from '../../conventions/kernel-paths';

/** Plugins that put pods on a Linux bridge (flannel delegates to bridge). */
const BRIDGED = new Set(['bridge', 'flannel']);
/** An IPv6 subnet in a config's IPAM ranges. */
const IPV6_SUBNET = /"subnet"\s*:\s*"[0-9A-Fa-f]*:[0-9A-Fa-f:.]*\/\d+"/;

export const cniKernelPrerequisites: Rule = {
  id: 'cni.kernel.prerequisites',
  area: 'cni',
  severity: 'error',
  severityWhen: {
    error: 'IP forwarding is off, or the config in use asks for IPv6 while IPv6 is disabled',
    warning: 'pods sit on a bridge while br_netfilter or bridge-nf-call-iptables is off',
  },
  title: 'A kernel setting the CNI in use needs is off',
  firesWhen:
    '`net.ipv4.ip_forward` is not 1 (error); the config in use puts pods on a bridge (`bridge`, `flannel`) while `br_netfilter` is not loaded or `net.bridge.bridge-nf-call-iptables` is 0 (warning); or it asks for IPv6 addresses while IPv6 is disabled (error). Read from /proc and /sys, recorded in bundles',
  repair: {
    kind: 'guidance',
    text: 'set the sysctl / load the module now and persist it in /etc/sysctl.d and /etc/modules-load.d',
  },
  platforms: ['linux'],
  kb: [
    'docs/knowledge/node-layouts.md#kernel-settings-pod-networking-needs',
    'https://github.com/kubernetes/kubernetes/issues/67431',
  ],
  evaluate(ctx) {
    const s = ctx.snapshot;
    if (s.node.os !== 'linux') return notApplicable('Linux kernel settings');
    const judged = judgedRuntimes(ctx);
    if (isOutcome(judged)) return judged;
    const inUse = judged.flatMap((rt) => (rt.load?.inUse ?? []).map((f) => ({ rt, f })));
    if (inUse.length === 0)
      return notApplicable('no CNI config is in use, so nothing needs these settings yet');
    if (!s.kernel) return unknown('the kernel settings (/proc, /sys) were not recorded');
    if (!s.kernel.known) return unknown(s.kernel.reason);
    const k = s.kernel.value;
    const findings: FindingDraft[] = [];
    if (k.ipForward !== '1')
      findings.push({
        key: 'ip_forward',
        severity: 'error',
        title: 'IP forwarding is off (net.ipv4.ip_forward = 0)',
        summary:
          "The kernel does not forward packets between interfaces, so pod traffic never leaves the node (and kubeadm's preflight refuses the node). Pods start, but cannot reach Services or pods elsewhere.",
        evidence: [
          {
            kind: 'path',
            path: KERNEL_PATHS.ipForward,
            state: `contains ${JSON.stringify(k.ipForward)}`,
          },
        ],
        repairs: [],
        guidance:
          'sysctl -w net.ipv4.ip_forward=1, and persist it: echo net.ipv4.ip_forward=1 > /etc/sysctl.d/99-kubernetes.conf (a later sysctl.d file or a firewall service may turn it off again).',
      });
    const bridged = inUse.filter(({ f }) => {
      const p = parsed(f);
      return p?.ok && p.plugins.some((x) => BRIDGED.has(x.type));
    });
    for (const { rt, f } of bridged.slice(0, 1)) {
      if (k.brNetfilter === 'absent')
        findings.push({
          key: 'br_netfilter',
          severity: 'warning',
          runtime: rt.label,
          title: 'br_netfilter is not loaded while pods sit on a Linux bridge',
          summary: `${rt.label} uses ${f.name}, which puts pods on a Linux bridge. Without br_netfilter, traffic between two pods on that bridge skips iptables, so kube-proxy's Service rules do not apply to it: a pod calling a Service whose backend is on the same node times out (typically DNS).`,
          evidence: [
            confFileEvidence(f),
            {
              kind: 'path',
              path: KERNEL_PATHS.brNetfilterModule,
              state: 'missing (module not loaded)',
            },
          ],
          repairs: [],
          guidance:
            'modprobe br_netfilter, and persist it: echo br_netfilter > /etc/modules-load.d/k8s.conf; then set net.bridge.bridge-nf-call-iptables=1.',
        });
      else if (k.bridgeNfCallIptables === '0')
        findings.push({
          key: 'bridge-nf-call-iptables',
          severity: 'warning',
          runtime: rt.label,
          title: 'net.bridge.bridge-nf-call-iptables is 0 while pods sit on a Linux bridge',
          summary: `${rt.label} uses ${f.name}, which puts pods on a Linux bridge, but bridged traffic is not passed to iptables: kube-proxy's Service rules do not apply between pods on this node, so Service calls to a local backend time out.`,
          evidence: [
            confFileEvidence(f),
            { kind: 'path', path: KERNEL_PATHS.bridgeNfCallIptables, state: 'contains "0"' },
          ],
          repairs: [],
          guidance:
            'sysctl -w net.bridge.bridge-nf-call-iptables=1 and persist it in /etc/sysctl.d/99-kubernetes.conf.',
        });
    }
    if (k.ipv6Disabled === true) {
      const v6 = inUse.find(({ f }) => f.text !== undefined && IPV6_SUBNET.test(f.text));
      if (v6)
        findings.push({
          key: 'ipv6',
          severity: 'error',
          runtime: v6.rt.label,
          title: `${v6.f.name} asks for IPv6 addresses, but IPv6 is disabled on this node`,
          summary: `${v6.rt.label} uses ${v6.f.name}, whose IPAM ranges include an IPv6 subnet. With IPv6 disabled the bridge plugin cannot put an IPv6 address on the bridge ("could not add IP address to \\"cni0\\": permission denied"), so every sandbox fails.`,
          evidence: [
            confFileEvidence(v6.f),
            { kind: 'path', path: KERNEL_PATHS.disableIpv6, state: 'IPv6 disabled' },
          ],
          repairs: [],
          guidance:
            'Use an IPv4-only config (CRI-O: 11-crio-ipv4-bridge.conflist), remove the IPv6 range, or enable IPv6 (net.ipv6.conf.all.disable_ipv6=0).',
        });
    }
    return fail(...findings);
  },
};
