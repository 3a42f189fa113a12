/* global document, window, fetch */

// The sandbox server's small JSON API, and the one place its refusals are shown.

/** The sandbox does not answer at all: it stopped (or restarts). Not a refusal: the page says so once, in a banner. */
export class SandboxGone extends Error {}

export async function api(path, body) {
	let response;
	try {
		response = await fetch(
			path,
			body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
		);
	} catch {
		throw new SandboxGone('The sandbox stopped.');
	}
	const json = await response.json().catch(() => ({}));
	if (!response.ok) throw new Error(json.error ?? `The sandbox answered ${response.status}.`);
	return json;
}

export function toast(text) {
	const element = document.getElementById('toast');
	element.textContent = text;
	element.hidden = false;
	window.clearTimeout(toast.timer);
	toast.timer = window.setTimeout(() => (element.hidden = true), 6000);
}
