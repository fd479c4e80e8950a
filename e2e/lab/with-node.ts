/**
 * A lab that looks like a node to the doctor: the private containerd plus a kubelet stand-in whose
 * flags name its socket (so a live scan judges the lab's containerd, as it would the kubelet's
 * runtime). Always torn down; a teardown leak fails the test even when the body passed.
 */
import { startLab, type Lab, type LabOptions } from './harness';
import { startKubeletStandIn } from './kubelet-standin';

export async function withLabNode(
  name: string,
  opts: Omit<LabOptions, 'name'>,
  body: (lab: Lab) => Promise<void>,
): Promise<void> {
  const lab = await startLab({ name, ...opts });
  const kubelet = await startKubeletStandIn([`--container-runtime-endpoint=unix://${lab.socket}`]);
  let failure: unknown;
  try {
    await body(lab);
  } catch (e) {
    failure = e;
  }
  await kubelet.stop();
  try {
    await lab.stop();
  } catch (e) {
    failure ??= e;
  }
  if (failure) throw failure;
}
