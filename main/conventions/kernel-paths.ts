/** The /proc and /sys files that hold the kernel prerequisites of pod networking (kubeadm's preflight reads the same). */
export const KERNEL_PATHS = {
  ipForward: '/proc/sys/net/ipv4/ip_forward',
  bridgeNfCallIptables: '/proc/sys/net/bridge/bridge-nf-call-iptables',
  brNetfilterModule: '/sys/module/br_netfilter',
  ipv6: '/proc/sys/net/ipv6',
  disableIpv6: '/proc/sys/net/ipv6/conf/all/disable_ipv6',
} as const;
