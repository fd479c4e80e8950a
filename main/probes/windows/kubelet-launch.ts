/**
 * Where a Windows kubelet's command line lives when no kubelet process can be read
 * (docs/knowledge/windows-node.md#how-the-kubelet-is-started), in the order Windows uses them:
 * the `kubelet` service's nssm Parameters (Application + AppParameters), else its ImagePath; when
 * either runs PowerShell on a script, that script; else sig-windows-tools' default
 * C:\k\StartKubelet.ps1. Flags read from a script carry its path and line; flags read from a
 * registry value carry `<key>\<value>` and the value is kept for evidence.
 */
import type { Fact } from '../../../shared/model/fact';
import type {
  KubeletFlag,
  KubeletLaunch,
  RegistryValue,
  ServiceFact,
  TextFile,
} from '../../../shared/model/snapshot';
import {
  DEFAULT_KUBELET_SCRIPT,
  launchScriptPaths,
  nssmKey,
  serviceKey,
} from '../../conventions/windows-launch';
import { pathKey } from '../../conventions/node-paths';
import { splitWindowsCommandLine } from '../../host/windows/command-line';
import type { ProbeContext } from '../context';
import { parseFlags } from '../kubelet';
import { scriptKubeletFlags } from './kubelet-script';

export interface LaunchProbe {
  launch: KubeletLaunch;
  flags: KubeletFlag[];
  /** Scripts read (for evidence), found or not. */
  files: TextFile[];
  /** The kubelet service exists: a kubelet is installed even when nothing else says so. */
  serviceInstalled: boolean;
}

const leaf = (p: string): string => (p.split(/[\\/]/).pop() ?? '').toLowerCase();
const isKubeletBinary = (p: string): boolean => /^kubelet(\.exe)?$/.test(leaf(p));

export async function probeWindowsKubeletLaunch(
  ctx: ProbeContext,
  services: Fact<ServiceFact[]>,
): Promise<LaunchProbe> {
  const notes: string[] = [];
  const files: TextFile[] = [];
  const tried = new Set<string>();
  const svc = services.known
    ? services.value.find((s) => s.name.toLowerCase() === 'kubelet')
    : undefined;
  const serviceInstalled = svc !== undefined && svc.state !== 'missing';
  if (!services.known) notes.push(`services: ${services.reason}`);
  else if (!serviceInstalled) notes.push('there is no kubelet service');

  const fromRegistry = (key: string, value: string, data: string, args: string[]): LaunchProbe => {
    const reg: RegistryValue = { key, value, data };
    return {
      launch: { source: 'registry', where: `${key}\\${value}`, registry: [reg], notes },
      flags: parseFlags(args, `${key}\\${value}`),
      files,
      serviceInstalled,
    };
  };

  /** The first script of a command line that exists and starts the kubelet. */
  const fromScripts = async (paths: string[], via: string): Promise<LaunchProbe | undefined> => {
    for (const p of paths) {
      if (tried.has(pathKey('windows', p))) continue;
      tried.add(pathKey('windows', p));
      const t = await ctx.text(p);
      if (!t.known) {
        notes.push(`${p} (${via}) could not be read: ${t.reason}`);
        continue;
      }
      if (!t.value) {
        notes.push(`${p} (${via}) does not exist`);
        continue;
      }
      const parsed = scriptKubeletFlags(t.value.text, p);
      if (!parsed.startsKubelet) {
        notes.push(`${p} (${via}) does not start the kubelet`);
        continue;
      }
      files.push(t.value);
      if (t.value.truncated) notes.push(`${p} was read only in part`);
      return {
        launch: { source: 'script', where: p, notes },
        flags: parsed.flags,
        files,
        serviceInstalled,
      };
    }
    return undefined;
  };

  const launch = svc?.launch;
  if (serviceInstalled && launch === undefined)
    notes.push("the kubelet service's registry key was not recorded");
  if (launch?.nssmError !== undefined)
    notes.push(`${nssmKey(svc!.name)} could not be read: ${launch.nssmError}`);
  if (launch?.imagePathError !== undefined)
    notes.push(`${serviceKey(svc!.name)} ImagePath could not be read: ${launch.imagePathError}`);

  if (svc && launch?.nssm) {
    const { application, parameters = '', directory = '' } = launch.nssm;
    const line = `"${application}" ${parameters}`;
    if (isKubeletBinary(application))
      return fromRegistry(
        nssmKey(svc.name),
        'AppParameters',
        parameters,
        splitWindowsCommandLine(line).slice(1),
      );
    const found = await fromScripts(
      launchScriptPaths(line, directory),
      `nssm AppParameters of the ${svc.name} service`,
    );
    if (found) return found;
    notes.push(`nssm runs ${application} ${parameters}, which names no kubelet start script`);
  }
  if (svc && launch?.imagePath !== undefined) {
    const args = splitWindowsCommandLine(launch.imagePath);
    const image = args[0] ?? '';
    if (isKubeletBinary(image))
      return fromRegistry(serviceKey(svc.name), 'ImagePath', launch.imagePath, args.slice(1));
    if (/^nssm(\.exe)?$/.test(leaf(image)) && !launch.nssm && launch.nssmError === undefined)
      notes.push(`its ImagePath runs ${image}, but it has no nssm Parameters`);
    else if (!/^nssm(\.exe)?$/.test(leaf(image))) {
      const found = await fromScripts(
        launchScriptPaths(launch.imagePath),
        `ImagePath of the ${svc.name} service`,
      );
      if (found) return found;
      notes.push(`its ImagePath ${launch.imagePath} names no kubelet start script`);
    }
  }
  const found = await fromScripts([DEFAULT_KUBELET_SCRIPT], 'the default start script');
  if (found) return found;
  return { launch: { source: 'none', notes }, flags: [], files, serviceInstalled };
}
