/**
 * An email as `/link` may repeat it: the first character of the local part, `***`, then `@` and the domain
 * (`alice@example.com` → `a***@example.com`). The split is at the last `@`, since a domain never holds one. A first
 * character outside the Basic Multilingual Plane is kept whole; a combining mark after it is not kept.
 *
 * @returns `***` when there is no `@`; `***@domain` when the local part is empty
 */
export function maskEmail(email: string): string {
	const at = email.lastIndexOf('@');
	if (at === -1) return '***';
	const first = email.codePointAt(0);
	const initial = at === 0 || first === undefined ? '' : String.fromCodePoint(first);
	return `${initial}***${email.slice(at)}`;
}
