import type { Bindings, Level, Logger } from 'pino';

const LEVELS: ReadonlySet<string> = new Set<Level>(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);

/**
 * A child of `parent` with `bindings`, made when it first writes a line (at a level `parent` writes) or is used
 * otherwise. Making a pino child serializes its bindings through the redaction, about 15 KB of garbage, and most
 * interactions write no line at all: a shown answer's lines are debug ones.
 */
export function lazyChild(parent: Logger, bindings: () => Bindings): Logger {
	let child: Logger | undefined;
	const made = (): Logger => (child ??= parent.child(bindings()));
	return new Proxy(parent, {
		get(target, property) {
			if (child === undefined && typeof property === 'string') {
				// A line the level drops, or a question about the level, needs no child: it has its parent's level.
				if (LEVELS.has(property) && !target.isLevelEnabled(property)) return noop;
				if (property === 'isLevelEnabled' || property === 'level') {
					const value: unknown = Reflect.get(target, property, target);
					return typeof value === 'function' ? (value.bind(target) as unknown) : value;
				}
			}
			const real = made();
			const value: unknown = Reflect.get(real, property, real);
			return typeof value === 'function' ? (value.bind(real) as unknown) : value;
		},
	});
}

function noop(): void {}
