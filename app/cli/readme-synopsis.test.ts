// The README's command-line synopsis lists every command and states the Node version (issue 22,
// point 7; newcomer review README 1 and 3): a command added without a README line fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './main';

const README = readFileSync(join(__dirname, '../../README.md'), 'utf8');
const CLI_MD = readFileSync(join(__dirname, '../../docs/cli.md'), 'utf8');

describe('README', () => {
  it.each(COMMANDS.map((c) => c.name))('lists cni-doctor %s in its synopsis', (name) => {
    const synopsis = README.slice(README.indexOf('## The command line'));
    expect(synopsis).toMatch(new RegExp(`^cni-doctor ${name}\\b`, 'm'));
  });

  it('states the Node version it needs', () => {
    expect(README).toMatch(/Needs Node\.js 20 or newer/);
  });
});

describe('docs/cli.md', () => {
  it('documents explain', () => {
    expect(CLI_MD).toMatch(/\*\*explain TEXT\*\*/);
  });
});
