/**
 * The import graph, checked by dependency-cruiser (`npm run lint`): no cycle, type-only imports included, and no
 * import up the layers. It reads every file of the folders it is given, resolved as TypeScript resolves them, so an
 * editor cannot hold a stale graph.
 */

import e2eWithServices from './test/e2eWithServices.json' with { type: 'json' };

/**
 * The folders of src/ from the top down (docs/architecture.md's map): a folder imports from its own layer and the
 * layers below it, never above. The entry scripts at the top of src/ (main, deployCommands, keygen, restProxy) are
 * the composition root and may import anything, commands/ included; nothing else in src/ imports commands/.
 */
const LAYERS = [
	['commands'],
	['src/asking'],
	// The app's frame: the context every handler gets, the command shape, the router and the bot that wires them; and
	// beside it, the other door members come in by: turns by message (talk), which the bot wires as it wires the router,
	// and which use the frame's context, custom ids and places as the router's handlers do.
	['src/app', 'src/talk'],
	['src/automod'],
	['src/moderation'],
	['src/replies'],
	['src/admission'],
	['src/generation'],
	['src/discord'],
	['src/config'],
	['src/conversations'],
	['src/files', 'src/accounts', 'src/settings', 'src/usage'],
	['src/storage'],
	['src/operations'],
	// The sentences in each language serve every answer, from every folder: an error chooses its sentence where it is thrown.
	['src/http', 'src/errors', 'src/i18n', 'src/logging', 'src/crypto', 'src/text', 'src/time'],
];

const under = (folders) => `^(${folders.join('|')})/`;

/** One rule per layer below the top: its files import nothing from the layers above it. */
const layerRules = LAYERS.slice(1).map((layer, index) => ({
	name: `no-arrow-back-up:${layer.join(',')}`,
	severity: 'error',
	comment: `${layer.join(', ')} sits below ${LAYERS.slice(0, index + 1)
		.flat()
		.join(', ')} in docs/architecture.md's map: an import from above runs back up.`,
	from: { path: under(layer) },
	to: { path: under(LAYERS.slice(0, index + 1).flat()) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
	forbidden: [
		{
			name: 'no-import-cycle',
			severity: 'error',
			comment: 'An import (a type-only one too) that leads back to the importing file: a cycle of types is still an arrow back up.',
			from: {},
			to: { circular: true },
		},
		...layerRules,
		{
			name: 'offline-tests-need-no-service',
			severity: 'error',
			comment:
				'npm test (the unit and e2e projects) runs with Node alone: a file of theirs that reaches Redis or a browser belongs under test/services/, or in test/e2eWithServices.json.',
			from: { path: '^test/(unit|e2e)/', pathNot: `^(${e2eWithServices.map((file) => file.replaceAll('.', '\\.')).join('|')})$` },
			to: { path: '^(test/support/(redisServer|testRedis|sandboxBrowser)\\.ts|node_modules/playwright-core/)', reachable: true },
		},
	],
	options: {
		// `import type` and type-only re-exports count: they are arrows of the design, even if the compiler drops them.
		tsPreCompilationDeps: true,
		tsConfig: { fileName: 'tsconfig.json' },
		doNotFollow: { path: 'node_modules' },
		exclude: { path: '^(dist|data|coverage)/' },
		enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
	},
};
