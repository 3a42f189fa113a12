/** Shortens `text` to `limit` characters with an ellipsis, never splitting a surrogate pair. */
export function truncate(text: string, limit: number): string {
	if (text.length <= limit) return text;
	let cut = limit - 1;
	const code = text.charCodeAt(cut - 1);
	if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
	return `${text.slice(0, cut)}…`;
}
