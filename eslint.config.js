import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { importCycles } from './eslint/importCycles.js';

/**
 * The folders of src/ from the top down (docs/architecture.md's map): a folder imports from its own layer and the
 * layers below it, never above. The entry scripts at the top of src/ (main, deployCommands, keygen, restProxy) are
 * the composition root and may import anything, commands/ included; nothing else in src/ imports commands/.
 */
const LAYERS = [
	['commands'],
	['src/asking'],
	// The app's frame: the context every handler gets, the command shape, the router and the bot that wires them.
	['src/app'],
	['src/automod'],
	['src/moderation'],
	['src/replies'],
	['src/admission'],
	['src/generation'],
	['src/discord'],
	['src/config'],
	['src/conversations'],
	['src/files', 'src/accounts', 'src/settings'],
	['src/storage'],
	['src/operations'],
	// The sentences in each language serve every answer, from every folder: an error chooses its sentence where it is thrown.
	['src/http', 'src/errors', 'src/i18n', 'src/logging', 'src/crypto', 'src/text', 'src/time'],
];

const layeringZones = LAYERS.flatMap((layer, depth) =>
	layer.map((target) => ({
		target: `./${target}`,
		from: LAYERS.slice(0, depth)
			.flat()
			.map((folder) => `./${folder}`),
		message: `${target} sits below this folder in docs/architecture.md's map: an import from above runs back up.`,
	})),
).filter((zone) => zone.from.length > 0);

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
	// The import graph: no cycle (types included), and no arrow back up between the folders.
	{
		files: ['src/**/*.ts', 'commands/**/*.ts'],
		plugins: { 'import-x': importX, veil: importCycles },
		settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } })] },
		rules: {
			'veil/no-import-cycle': 'error',
			'import-x/no-restricted-paths': ['error', { zones: layeringZones }],
		},
	},
);
