/** A request target's path and query, as the local servers read them. */
export interface RequestTarget {
	readonly pathname: string;
	readonly searchParams: URLSearchParams;
}

/**
 * Splits a request target into its path and query without `new URL(target, base)`, which reads a target such as
 * `//`, `//@` or `//a:b@` as an authority and throws: any web page can send one to a port on 127.0.0.1.
 */
export function requestTarget(target: string | undefined): RequestTarget {
	const raw = (target ?? '/').split('#', 1)[0] ?? '';
	const mark = raw.indexOf('?');
	const pathname = mark === -1 ? raw : raw.slice(0, mark);
	return {
		pathname: pathname.startsWith('/') ? pathname : `/${pathname}`,
		searchParams: new URLSearchParams(mark === -1 ? '' : raw.slice(mark + 1)),
	};
}
