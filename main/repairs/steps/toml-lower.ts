/**
 * TOML intents become `write` steps with the full new file content: the preview shows the exact
 * bytes, and the executor only ever does atomic replaces.
 */
import type {
  TomlRemoveElementStep,
  TomlRemoveStep,
  TomlSetStep,
  WriteStep,
} from '../../../shared/model/repair';
import {
  removeArrayElement,
  removeTomlKey,
  setTomlValue,
  type TomlEditResult,
} from '../../config/toml';

export type TomlStep = TomlSetStep | TomlRemoveStep | TomlRemoveElementStep;

export function isTomlStep(step: { kind: string }): step is TomlStep {
  return (
    step.kind === 'toml-set' || step.kind === 'toml-remove' || step.kind === 'toml-remove-element'
  );
}

export function applyTomlStep(step: TomlStep, text: string): TomlEditResult {
  switch (step.kind) {
    case 'toml-set':
      return setTomlValue(text, step.keyPath, step.value);
    case 'toml-remove':
      return removeTomlKey(text, step.keyPath);
    case 'toml-remove-element':
      return removeArrayElement(text, step.keyPath, step.element);
  }
}

/** The write step for a TOML intent on `text` (the file whose hash is `step.expectedSha256`). */
export function lowerTomlStep(
  step: TomlStep,
  text: string,
): { ok: true; step: WriteStep } | { ok: false; reason: string } {
  const r = applyTomlStep(step, text);
  if (!r.ok) return { ok: false, reason: `cannot edit ${step.path}: ${r.reason}` };
  return {
    ok: true,
    step: {
      kind: 'write',
      path: step.path,
      content: r.text,
      expectedSha256: step.expectedSha256,
      needsElevation: step.needsElevation,
    },
  };
}
