import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The import graph (no cycle, types included; no arrow back up the layers) is dependency-cruiser's: .dependency-cruiser.js.
export default tseslint.config(
	{ ignores: ['dist/', 'node_modules/', 'data/', 'coverage/'] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
	// Type-aware rules over the product's code: a promise nobody awaits or catches, a switch that forgets a case.
	{
		files: ['src/**/*.ts', 'commands/**/*.ts'],
		extends: [tseslint.configs.recommendedTypeChecked],
		languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
		rules: {
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/switch-exhaustiveness-check': 'error',
			// An async method that does not await is how a synchronous implementation meets a Promise interface.
			'@typescript-eslint/require-await': 'off',
			// A write batch hands its waiters the failure as its write threw it, whatever it was.
			'@typescript-eslint/prefer-promise-reject-errors': 'off',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
);
