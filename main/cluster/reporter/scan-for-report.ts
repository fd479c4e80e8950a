/**
 * The reporter's scan: through the node's root mounted in the pod (Linux DaemonSet), or of this
 * machine (a Windows HostProcess pod runs on the host itself).
 */
import type { Report } from '../../../shared/model/report';

export async function scanForReport(node: string, hostRoot: string | undefined): Promise<Report> {
  const { scanHost } = await import('../../engine/scan');
  if (hostRoot === undefined) {
    const { openHost } = await import('../../engine/open-host');
    return (await scanHost(await openHost({}))).report;
  }
  const { ChrootTransport } = await import('./chroot-transport');
  const { RemoteLinuxHost } = await import('../../remote/remote-host');
  const host = new RemoteLinuxHost(new ChrootTransport(hostRoot, node));
  try {
    await host.connect();
    return (await scanHost(host)).report;
  } finally {
    await host.close();
  }
}
