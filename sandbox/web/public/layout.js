/* global document, window */

// The narrow layouts, as Discord's own: below 1100 px the model panel is a drawer, below 720 px the channels too.
// Each opens from a button of the channel's header and closes with a click beside it.

const $ = (id) => document.getElementById(id);
const WIDE = window.matchMedia('(min-width: 1100px)');

function toggleModel() {
	// Wide, the panel is a column that can be folded away; narrower, a drawer over the chat.
	const name = WIDE.matches ? 'model-folded' : 'model-open';
	document.body.classList.toggle(name);
	document.body.classList.remove('channels-open');
	sync();
}

function toggleChannels() {
	document.body.classList.toggle('channels-open');
	document.body.classList.remove('model-open');
	sync();
}

export function closeDrawers() {
	document.body.classList.remove('channels-open', 'model-open');
	sync();
}

function sync() {
	const body = document.body.classList;
	$('toggle-channels').setAttribute('aria-expanded', String(body.contains('channels-open')));
	$('toggle-model').setAttribute('aria-expanded', String(WIDE.matches ? !body.contains('model-folded') : body.contains('model-open')));
}

export function bindLayout() {
	$('toggle-channels').addEventListener('click', toggleChannels);
	$('toggle-model').addEventListener('click', toggleModel);
	$('scrim').addEventListener('click', closeDrawers);
	WIDE.addEventListener('change', closeDrawers);
	sync();
}
