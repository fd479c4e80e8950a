/**
 * The rule → repair contract is checked by the compiler: `npm run typecheck` (tsc over this file)
 * fails if any `@ts-expect-error` below stops being an error, i.e. if a misspelled kind, a wrong
 * or missing parameter, or a builder table without every kind would compile.
 */
import { describe, expect, it } from 'vitest';
import { offer, type OfferKind } from './offers';
import { PLAN_BUILDERS } from '../repairs/plans';
import type { PlanBuilders } from '../repairs/plans/types';

describe('offer(): the typed rule → repair contract', () => {
  it('builds the offer the repair engine looks up by kind', () => {
    expect(
      offer('rename-file', 'Disable a.conf', { from: '/d/a.conf', to: '/d/a.conf.disabled' }),
    ).toEqual({
      kind: 'rename-file',
      title: 'Disable a.conf',
      needsElevation: true,
      params: { from: '/d/a.conf', to: '/d/a.conf.disabled' },
    });
    expect(offer('antrea-restart', 'Restart antrea-agent', {}, { key: 'x' }).key).toBe('x');
  });

  it('rejects at compile time what the plan builders could not use', () => {
    // A misspelled kind.
    // @ts-expect-error 'rename-files' is not an offer kind
    offer('rename-files', 't', { from: 'a', to: 'b' });
    // A parameter the kind does not take.
    // @ts-expect-error disable-files takes paths, not path
    offer('disable-files', 't', { path: '/etc/cni/net.d/a.conf' });
    // A parameter of the wrong type.
    // @ts-expect-error SystemdCgroup is a boolean
    offer('containerd-set-systemd-cgroup', 't', { value: 'true' });
    // A missing parameter.
    // @ts-expect-error rename-file needs both from and to
    offer('rename-file', 't', { from: 'a' });
    // A parameter nobody reads.
    // @ts-expect-error antrea-restart takes none
    offer('antrea-restart', 't', { withOvs: true });
    expect(true).toBe(true);
  });

  it('has exactly one plan builder per kind (checked by PlanBuilders, listed here)', () => {
    const { 'rename-file': renameBuilder, ...withoutRename } = PLAN_BUILDERS;
    // @ts-expect-error a builder table without 'rename-file' is not a PlanBuilders
    const missing: PlanBuilders = withoutRename;
    // @ts-expect-error the rename-file builder cannot stand for disable-files
    const swapped: PlanBuilders = { ...PLAN_BUILDERS, 'disable-files': renameBuilder };
    void [missing, swapped];
    const kinds = Object.keys(PLAN_BUILDERS).sort();
    expect(kinds).toContain('rename-file' satisfies OfferKind);
    for (const k of kinds) expect(typeof PLAN_BUILDERS[k as OfferKind]).toBe('function');
  });
});
