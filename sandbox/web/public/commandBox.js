// The command box's reading of what was typed, as Discord's client reads it: the command, its subcommand group and
// subcommand, then the options. Names are shown (and matched) in the person's language, from the registered
// commands' name_localizations; what is sent keeps the registered names, as Discord sends them.

const SUBCOMMAND = 1;
const GROUP = 2;
const ADMINISTRATOR = 1n << 3n;
/** Options typed as text after the command: strings and numbers. */
const TYPED = new Set([3, 4, 10]);

/** An option's or a command's name as a client in `locale` shows it. */
export function localName(item, locale) {
	return item.name_localizations?.[locale] ?? item.name;
}

export function localDescription(item, locale) {
	return item.description_localizations?.[locale] ?? item.description;
}

/**
 * The commands Discord's client would offer this person here: a command's `contexts` must allow a server or a DM
 * (whichever this is), and in a server its `default_member_permissions` must be held (Administrator holds all).
 */
export function visibleCommands(commands, person, channel) {
	const have = BigInt(person.permissions);
	return commands.filter((command) => {
		const contexts = command.contexts ?? [0, 1, 2];
		if (channel.kind === 'dm') return contexts.includes(1);
		if (!contexts.includes(0)) return false;
		if (command.default_member_permissions === null || command.default_member_permissions === undefined) return true;
		const need = BigInt(command.default_member_permissions);
		if ((have & ADMINISTRATOR) !== 0n) return true;
		return need !== 0n && (have & need) === need;
	});
}

function children(node) {
	return (node.options ?? []).filter((o) => o.type === SUBCOMMAND || o.type === GROUP);
}

/** Every runnable path of the slash commands (`/flagged view`, `/settings modlog`…), as the client lists them. */
export function commandEntries(commands, locale) {
	const entries = [];
	const walk = (command, path, node) => {
		const below = children(node);
		if (below.length === 0) {
			entries.push({ command, path: path.map((p) => p.name), label: path.map((p) => localName(p, locale)).join(' '), node });
			return;
		}
		for (const child of below) walk(command, [...path, child], child);
	};
	for (const command of commands.filter((c) => c.type === 1)) walk(command, [command], command);
	return entries;
}

const same = (item, word, locale) => word !== undefined && [item.name, localName(item, locale)].some((n) => n.toLowerCase() === word.toLowerCase());

/**
 * Reads `/command [group] [subcommand] [options]`. Returns the command, the path of names found (registered names),
 * whether it reaches a runnable subcommand (`complete`: never a guess at the first one), the node whose options
 * follow, and the options' typed values: `name:value` pairs, or else all the rest as the first typed option.
 */
export function parseTyped(text, commands, locale) {
	const rest = text.replace(/^\//, '');
	const words = rest.split(/\s+/).filter(Boolean);
	const command = commands.find((c) => c.type === 1 && same(c, words[0], locale));
	if (!command) return undefined;
	let node = command;
	const path = [command.name];
	let used = 1;
	while (children(node).length > 0) {
		const next = children(node).find((c) => same(c, words[used], locale));
		if (!next) return { command, path, complete: false, node, values: {} };
		node = next;
		path.push(next.name);
		used += 1;
	}
	return { command, path, complete: true, node, values: optionValues(afterWords(rest, used), node.options ?? [], locale) };
}

/** The text after the first `count` words, its own spacing kept. */
function afterWords(text, count) {
	const match = new RegExp(`^\\s*(?:\\S+\\s+){${count}}`).exec(`${text} `);
	return match ? `${text} `.slice(match[0].length).trim() : '';
}

function optionValues(text, options, locale) {
	if (!text) return {};
	const byName = new Map();
	for (const option of options) {
		byName.set(option.name.toLowerCase(), option.name);
		byName.set(localName(option, locale).toLowerCase(), option.name);
	}
	const values = {};
	// `name:value name2:value two`: each value runs to the next known name.
	const marks = [...text.matchAll(/(?:^|\s)([^\s:]+):/g)].filter((m) => byName.has(m[1].toLowerCase()));
	if (marks.length > 0 && text.slice(0, marks[0].index).trim() === '') {
		marks.forEach((mark, i) => {
			const end = i + 1 < marks.length ? marks[i + 1].index : text.length;
			values[byName.get(mark[1].toLowerCase())] = text.slice(mark.index + mark[0].length, end).trim();
		});
		return values;
	}
	const first = [...options].sort((a, b) => Number(b.required === true) - Number(a.required === true)).find((o) => TYPED.has(o.type));
	if (first) values[first.name] = text;
	return values;
}

/** The options as Discord's interaction carries them, wrapped in the subcommand and its group. */
export function wrapOptions(path, options) {
	if (path.length === 3) return [{ type: GROUP, name: path[1], options: [{ type: SUBCOMMAND, name: path[2], options }] }];
	if (path.length === 2) return [{ type: SUBCOMMAND, name: path[1], options }];
	return options;
}

/** The subcommand node a path names, from the command down. */
export function nodeAt(command, path) {
	let node = command;
	for (const name of path.slice(1)) node = children(node).find((c) => c.name === name);
	return node;
}
