import type { Target } from '../../../shared/target';

export type ContainerTarget = Extract<Target, { kind: 'container' }>;

/** The engine client's arguments that run `argv` in a node container (`ENGINE exec -i NAME …`). */
export function containerExecArgs(t: ContainerTarget, argv: readonly string[]): string[] {
  return ['exec', '-i', t.name, ...argv];
}
