import js from '@eslint/js';
import tseslint from 'typescript-eslint';
// Formatting is Prettier's job (`npm run format`); this turns off the style rules that would fight it.
import prettierCompatible from 'eslint-config-prettier';
import { builtinModules } from 'node:module';

// The layers of docs/architecture.md, as import fences. A later block replaces the rule's options
// for the files it matches, so every block lists all the fences that hold there.
const ELECTRON = {
  name: 'electron',
  message: 'Only app/desktop may import electron (docs/architecture.md).',
};
const NODE_BUILTINS = [
  { group: ['node:*'], message: 'Node built-ins are not available here (docs/architecture.md).' },
  ...builtinModules
    .filter((m) => !m.startsWith('_'))
    .map((m) => ({
      regex: `^${m.replace(/[/.]/g, '\\$&')}(/.*)?$`,
      message: 'Node built-ins are not available here (docs/architecture.md).',
    })),
];
/** An import that climbs out of the current folder into one of these top-level folders. */
const into = (folders, message) => ({ regex: `^(\\.\\./)+(${folders.join('|')})/`, message });
const ENGINE_NOT_DOORS = into(
  ['app', 'renderer'],
  'The engine (main/) does not know which door called it: no import from app/ or renderer/ (docs/architecture.md).',
);
const fence = (...patterns) => ({
  'no-restricted-imports': ['error', { paths: [ELECTRON], patterns }],
});

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'e2e/out/**',
      'bench/out/**',
      'docs/**',
      'fixtures/**/files/**',
      'assets/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      ...fence(),
    },
  },
  {
    files: ['app/desktop/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The UI runs in a browser sandbox and talks to the engine only through DoctorApi. Its tests
    // may build realistic inputs with the engine.
    files: ['renderer/**'],
    ignores: ['renderer/vite.config.ts', 'renderer/**/*.test.{ts,tsx}'],
    rules: fence(
      into(
        ['main', 'app'],
        'The renderer talks to the engine only through DoctorApi (shared/api.ts), never by importing main/ or app/ (docs/architecture.md).',
      ),
      ...NODE_BUILTINS,
    ),
  },
  {
    // Contracts both sides import: plain types and constants, nothing that needs Node or a package.
    files: ['shared/**'],
    ignores: ['shared/**/*.test.ts'],
    rules: fence(
      into(
        ['main', 'app', 'renderer'],
        'shared/ is imported by every layer, so it imports none of them (docs/architecture.md).',
      ),
      {
        regex: '^[^.]',
        message:
          'shared/ is browser-safe and dependency-free: no packages, no Node built-ins (docs/architecture.md).',
      },
    ),
  },
  {
    files: ['main/**'],
    rules: fence(ENGINE_NOT_DOORS),
  },
  {
    // Rules are pure functions of the snapshot: they never read a node, and they share path and
    // endpoint conventions with the probes through main/conventions/. Their tests may use the engine.
    files: ['main/rules/**'],
    ignores: ['main/rules/**/*.test.ts', 'main/rules/**/*.testutil.ts'],
    rules: fence(
      ENGINE_NOT_DOORS,
      into(
        ['host', 'probes', 'repairs', 'engine', 'bundle', 'remote', 'cri'],
        'Rules judge the snapshot and never read a node: import shared/, main/rules/, main/logs/ or main/conventions/ (docs/architecture.md).',
      ),
      ...NODE_BUILTINS,
    ),
  },
  {
    files: ['**/*.mjs', 'scripts/**', 'bin/**'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // CommonJS scripts (the `cni-doctor` command starts sooner as one): require is how they import.
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', __dirname: 'readonly', module: 'writable' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettierCompatible,
);
