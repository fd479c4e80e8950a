import { describe, expect, it } from 'vitest';
import { redactCommandLine } from './redact';
import { RecordingHost } from '../host/recording-host';
import { WindowsHost } from '../host/windows/windows-host';
import { FakeWindowsNode } from '../host/windows/testing/fake-node';

describe('redactCommandLine (a Windows service ImagePath or nssm AppParameters)', () => {
  it('removes secret flag values in = and space forms, quoted or not, and lists each', () => {
    const r = redactCommandLine(
      'HKLM\\SYSTEM\\CurrentControlSet\\Services\\kubelet\\Parameters\\AppParameters',
      '--config=C:\\k\\c.yaml --token=abc.def --bootstrap-token "x y" --hostname-override=n1 --password \'p w\'',
    );
    expect(r.line).toBe(
      // A quoted value stays quoted, as in a file.
      '--config=C:\\k\\c.yaml --token=REDACTED --bootstrap-token "REDACTED" --hostname-override=n1 --password \'REDACTED\'',
    );
    expect(r.redactions.map((x) => x.what)).toEqual([
      'command-line flag value',
      'command-line flag value',
      'command-line flag value',
    ]);
    expect(redactCommandLine('x', 'C:\\k\\kubelet.exe --network-plugin=cni')).toEqual({
      line: 'C:\\k\\kubelet.exe --network-plugin=cni',
      redactions: [],
    });
  });

  it('collect keeps no token from the kubelet service in the bundle, and says so', async () => {
    const node = new FakeWindowsNode({
      services: [
        {
          name: 'kubelet',
          state: 'Stopped',
          nssm: {
            application: 'C:\\k\\kubelet.exe',
            parameters: '--token=s3cr3t --network-plugin=cni',
          },
        },
      ],
    });
    const rec = new RecordingHost(new WindowsHost(node), { redact: true, collectorVersion: 't' });
    const services = await rec.services(['kubelet']);
    const { manifest } = rec.result();
    expect(JSON.stringify(manifest.services)).not.toContain('s3cr3t');
    expect(services.known && services.value[0]?.launch?.nssm?.parameters).toBe(
      '--token=REDACTED --network-plugin=cni',
    );
    expect(manifest.redactions).toContainEqual({
      path: 'HKLM\\SYSTEM\\CurrentControlSet\\Services\\kubelet\\Parameters\\AppParameters',
      what: 'command-line flag value',
    });
  });
});
