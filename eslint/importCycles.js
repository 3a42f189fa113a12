import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

/**
 * `veil/no-import-cycle`: an import whose target leads back to the importing file. Unlike import-x's no-cycle it
 * counts `import type` too: a cycle of types is still an arrow back up (a factory and the implementations that
 * import its interface). Other files are read from disk, their relative imports found by a pattern; fine for a code
 * base whose imports all sit at the top of their files.
 */

const IMPORT = /^\s*(?:import|export)\b[^;]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|^\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/gm;
const graph = new Map();

function resolveImport(fromFile, specifier) {
	const base = resolve(dirname(fromFile), specifier);
	for (const candidate of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, resolve(base, 'index.ts')]) {
		if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
	}
	return undefined;
}

function importsOf(file) {
	let targets = graph.get(file);
	if (targets) return targets;
	targets = new Set();
	graph.set(file, targets);
	const text = readFileSync(file, 'utf8');
	for (const match of text.matchAll(IMPORT)) {
		const target = resolveImport(file, match[1] ?? match[2]);
		if (target) targets.add(target);
	}
	return targets;
}

/** A path of imports from `start` back to `goal`, or undefined. */
function pathBack(start, goal) {
	const seen = new Set();
	const walk = (file, trail) => {
		if (file === goal) return trail;
		if (seen.has(file)) return undefined;
		seen.add(file);
		for (const next of importsOf(file)) {
			const found = walk(next, [...trail, next]);
			if (found) return found;
		}
		return undefined;
	};
	return walk(start, [start]);
}

const noImportCycle = {
	meta: {
		type: 'problem',
		docs: { description: 'Forbid an import (types included) that leads back to the importing file' },
		schema: [],
		messages: { cycle: 'Import cycle: {{cycle}}' },
	},
	create(context) {
		const file = context.filename;
		const root = context.cwd;
		const check = (node) => {
			const specifier = node.source?.value;
			if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
			const target = resolveImport(file, specifier);
			if (!target) return;
			const back = pathBack(target, file);
			if (back) context.report({ node, messageId: 'cycle', data: { cycle: [file, ...back].map((f) => relative(root, f)).join(' → ') } });
		};
		return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
	},
};

export const importCycles = { rules: { 'no-import-cycle': noImportCycle } };
