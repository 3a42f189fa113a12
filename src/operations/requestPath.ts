/**
 * The path of a request target, without its query. Not `new URL(target, base)`: a target such as `//`, `//@` or
 * `//a:b@` reads as an authority there and throws.
 */
export function pathOf(target: string | undefined): string {
	return (target ?? '/').split(/[?#]/, 1)[0] ?? '/';
}
