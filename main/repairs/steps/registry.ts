/** The executor for each step kind: the only code that changes a node. */
import type { RepairStep } from '../../../shared/model/repair';
import { powershellExecutor } from './powershell';
import { renameExecutor } from './rename';
import { restartExecutor } from './restart';
import { tomlExecutor } from './toml';
import type { StepExecutor } from './types';
import { writeExecutor } from './write';

export function executorFor(step: RepairStep): StepExecutor {
  switch (step.kind) {
    case 'rename':
      return renameExecutor as StepExecutor;
    case 'write':
      return writeExecutor as StepExecutor;
    case 'toml-set':
    case 'toml-remove':
    case 'toml-remove-element':
      return tomlExecutor as StepExecutor;
    case 'restart-service':
      return restartExecutor as StepExecutor;
    case 'powershell':
      return powershellExecutor as StepExecutor;
  }
}
