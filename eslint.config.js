import js from '@eslint/js';
import tseslint from 'typescript-eslint';
// Formatting is Prettier's job (`npm run format`); this turns off the style rules that would fight it.
import prettierCompatible from 'eslint-config-prettier';

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
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: 'Only app/desktop may import electron (architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['app/desktop/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['**/*.mjs', 'scripts/**', 'bin/**'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  prettierCompatible,
);
