import type { APIModalInteractionResponseCallbackData } from 'discord.js';

/** Every custom_id in a component tree (rows, containers, sections, labels), for limits and lookups. */
export function collectCustomIds(components: unknown, out: string[] = []): string[] {
	if (!Array.isArray(components)) return out;
	for (const c of components as Array<Record<string, unknown>>) {
		if (!c || typeof c !== 'object') continue;
		if (typeof c.custom_id === 'string') out.push(c.custom_id);
		if (c.components) collectCustomIds(c.components, out);
		if (c.component) collectCustomIds([c.component], out);
		if (c.accessory) collectCustomIds([c.accessory], out);
	}
	return out;
}

/**
 * The `data.components` of a modal submit. With the modal the bot showed, the submission mirrors its layout
 * (Label type 18 around each input, or legacy action rows) and a field the modal lacks throws; without one, each
 * field becomes a Label around a text input, as Discord sends for current modals. discord.js 14.28 reads both.
 */
export function modalSubmission(
	customId: string,
	fields: Record<string, string>,
	shown: APIModalInteractionResponseCallbackData | undefined,
	files: Record<string, ReadonlyArray<{ id: string }>> = {},
): unknown[] {
	let nextId = 1;
	const input = (id: string) => ({ type: 4, id: nextId++, custom_id: id, value: fields[id] ?? '' });
	if (!shown) return Object.keys(fields).map((id) => ({ type: 18, id: nextId++, component: input(id) }));
	const known = new Set<string>();
	const components = (shown.components as unknown as Array<Record<string, unknown>>).map((top) => {
		const id = typeof top.id === 'number' ? top.id : nextId++;
		if (top.type === 18) {
			const inner = top.component as Record<string, unknown>;
			const innerId = String(inner.custom_id);
			known.add(innerId);
			// A file upload (type 19) sends the ids of its files; their objects go in data.resolved.attachments.
			const values = inner.type === 19 ? (files[innerId] ?? []).map((file) => file.id) : [];
			const component = inner.type === 4 ? input(innerId) : { type: inner.type, id: nextId++, custom_id: innerId, values };
			return { type: 18, id, component };
		}
		if (top.type === 1) {
			const inner = (top.components as Array<Record<string, unknown>>).map((c) => {
				known.add(String(c.custom_id));
				return input(String(c.custom_id));
			});
			return { type: 1, id, components: inner };
		}
		return { type: top.type, id };
	});
	const unknown = [...Object.keys(fields), ...Object.keys(files)].filter((key) => !known.has(key));
	if (unknown.length) {
		throw new Error(
			`modalSubmit: the modal "${customId}" the bot showed has no input ${unknown.join(', ')}; it has ${[...known].join(', ') || 'none'}`,
		);
	}
	return components;
}
