// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'circuits/build/**', 'contracts/artifacts/**', 'eslint.config.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    // The request path. On Node 20 (V8 11.3) an object literal that starts with a spread and has
    // more members after it gets a hidden class outside V8's transition tree, so every call builds
    // new maps in the old generation (about 110-280 bytes a call: npm run bench:object-spread;
    // 3.6 KB per swap build, a full collection every 6-9 s at half load: bench/README.md,
    // issue 17, "Seventh session").
    files: ['src/defi-builder/**/*.ts', 'src/usage/**/*.ts', 'src/common/**/*.ts', 'src/chain/**/*.ts'],
    // Not the DTOs (their decorators' options are built once, at load) nor the embedded devnet.
    ignores: ['**/*.spec.ts', '**/dto/**', 'src/chain/devnet/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ObjectExpression > SpreadElement:first-child ~ *',
          message:
            'Leading spread followed by more members: V8 11.3 builds new maps on every call. Write the members first and spread last, list them, or use Object.assign (npm run bench:object-spread).',
        },
      ],
    },
  },
);
