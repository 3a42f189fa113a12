/* global document, window */

// The page's state when the sandbox is gone or came back as another run: said once, in a banner, with what to do.
// Nothing typed is lost meanwhile: open forms stay open.

const TEXTS = {
	stopped: 'The sandbox stopped. Start it again (npm run sandbox), then reload this page. What you typed stays here.',
	restarted: 'The sandbox restarted: this page still shows the run before. Reload it to carry on.',
};

/** Shows the banner for `kind` ('stopped', 'restarted'), or hides it (undefined). */
export function showStopped(kind) {
	const banner = document.getElementById('stopped');
	document.body.classList.toggle('sandbox-gone', kind !== undefined);
	if (kind === undefined) return void (banner.hidden = true);
	banner.dataset.kind = kind;
	banner.querySelector('span').textContent = TEXTS[kind];
	banner.hidden = false;
}

export function bindStopped() {
	document.getElementById('stopped-reload').addEventListener('click', () => window.location.reload());
}
