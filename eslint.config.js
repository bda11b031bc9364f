// ESLint holds the habits reviews should not have to: type-checked rules from typescript-eslint
// (floating promises, unused variables, type-only imports), with formatting left to Prettier.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'lib/', 'coverage/', 'node_modules/', '.cache/', 'bench/probe.mjs', 'bench/minimal-waiter.mjs', 'bench/gc-preload.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // Async functions whose contract is a promise (close(), connect()) may have nothing to await yet.
      '@typescript-eslint/require-await': 'off',
      // `ConditionStatus | string` documents the expected values of an open string field.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
    },
  },
  {
    // The API server stand-in and the tests handle arbitrary JSON documents (Kubernetes objects, request
    // bodies) as `any` on purpose: what they assert on is the data, not its static type.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/restrict-plus-operands': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
  prettier,
);
