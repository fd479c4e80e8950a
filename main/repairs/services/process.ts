/**
 * Services that are plain child processes (the real-containerd lab, tests): restart = stop, then
 * start, through the caller's callbacks.
 */
import type { ServiceManager } from './types';

export interface ProcessControl {
  start(): Promise<void>;
  stop(): Promise<void>;
  isActive(): boolean | Promise<boolean>;
}

export class ProcessServiceManager implements ServiceManager {
  readonly kind = 'process';
  readonly live = true;
  /** Every restart asked for, in order (tests and the lab assert on it). */
  readonly restarts: string[] = [];

  constructor(private readonly services: Record<string, ProcessControl>) {}

  private control(name: string): ProcessControl {
    const c = this.services[name];
    if (!c) throw new Error(`no process is registered for service "${name}"`);
    return c;
  }

  async restart(name: string): Promise<void> {
    const c = this.control(name);
    this.restarts.push(name);
    await c.stop();
    await c.start();
  }

  async isActive(name: string): Promise<boolean> {
    return this.services[name] ? await this.control(name).isActive() : false;
  }
}
