/* global document, window, EventSource, URLSearchParams */
import { h, modalInputs, renderInput, renderMessage } from './render.js';
import { api, SandboxGone, toast } from './api.js';
import { applyChoices, bindModelPanel, drawExchanges, drawModelPanel } from './model.js';
import { commandBox } from './commandForm.js';
import { bindLayout, closeDrawers } from './layout.js';
import { localName, visibleCommands } from './commandBox.js';
import { bindStopped, showStopped } from './stopped.js';

// The sandbox page: what the chosen person sees, and their clicks carried to the sandbox server, which acts on
// the local Discord for them. Live updates come as Server-Sent Events.

const $ = (id) => document.getElementById(id);
const view = { person: 'member', channelId: '', state: undefined, modalCustomId: undefined, toBottom: true, news: [], target: undefined };

const person = () => view.state.people.find((p) => p.key === view.person);
const channel = () => view.state.channels.find((c) => c.id === view.channelId);

/** Carries out a page action; `toBottom` for what adds a message at the end (a command, a post), not for a click. */
async function act(promise, { toBottom = false } = {}) {
	if (toBottom) view.toBottom = true;
	try {
		const result = await promise;
		if (result?.modal) openModal(result.modal);
		return true;
	} catch (error) {
		if (error instanceof SandboxGone) showStopped('stopped');
		else toast(error.message);
		return false;
	}
}

const box = commandBox({
	state: () => view.state,
	person,
	channel,
	toast,
	send: (name, options, files) =>
		act(api('/api/command', { person: view.person, channelId: view.channelId, name, options, files }), { toBottom: true }),
});

function names() {
	const { state } = view;
	return {
		people: new Map([...state.people.map((p) => [p.id, p.name]), [state.veil.id, state.veil.name]]),
		channels: new Map(state.allChannels.map((c) => [c.id, c.name])),
		order: state.people.map((p) => p.id),
	};
}

// ---- loading and drawing ----

async function loadState() {
	view.state = await api(`/api/state?person=${view.person}`);
	const channels = view.state.channels;
	if (!channels.some((c) => c.id === view.channelId)) view.channelId = channels[0].id;
	$('person-select').replaceChildren(...view.state.people.map((p) => h('option', { value: p.key, selected: p.key === view.person }, p.label)));
	$('person-locale').replaceChildren(
		...view.state.locales.map((l) => h('option', { value: l.code, selected: l.code === person().locale }, `${l.name} (${l.code})`)),
	);
	drawSidebar();
	drawModelPanel(view.state.model);
	// A command half typed when the language changed: its suggestions now in the new language.
	box.onInput();
	view.toBottom = true;
	await refresh();
}

function drawSidebar() {
	const { state } = view;
	$('server-name').textContent = state.server;
	$('channels').replaceChildren(
		...state.channels.map((c) =>
			h(
				'button',
				{
					type: 'button',
					className: `channel${c.id === view.channelId ? ' current' : ''}${view.news.includes(c.id) ? ' news' : ''}`,
					'data-channel': c.name,
					onclick: () => selectChannel(c.id),
				},
				c.kind === 'dm' ? `@ ${c.name}` : c.kind === 'thread' ? `🧵 ${c.name}` : `# ${c.name}`,
			),
		),
	);
	$('person-role').textContent = `${person().name}: ${person().role}`;
	$('channel-name').textContent =
		channel().kind === 'dm' ? `@ ${channel().name}` : channel().kind === 'thread' ? `🧵 ${channel().name}` : `# ${channel().name}`;
	$('channel-topic').textContent = channel().topic;
	$('composer-input').placeholder = `Message ${channel().kind === 'dm' ? '@' : '#'}${channel().name} — type / for Veil's commands`;
}

let refreshing = false;
let again = false;
async function refresh() {
	if (refreshing) return void (again = true);
	refreshing = true;
	try {
		const { messages, news } = await api(`/api/messages?person=${view.person}&channel=${view.channelId}`);
		view.news = news;
		drawSidebar();
		const list = $('messages');
		const atBottom = view.toBottom || list.scrollHeight - list.scrollTop - list.clientHeight < 40;
		const top = list.scrollTop;
		view.toBottom = false;
		const actions = { button: pressButton, apps: openAppsMenu, jump: jumpTo };
		list.replaceChildren(...messages.map((m) => renderMessage(m, names(), actions)));
		if (view.target) list.querySelector(`[data-id="${view.target}"]`)?.classList.add('targeted');
		list.scrollTop = atBottom && !view.target ? list.scrollHeight : top;
		if (view.state.model.local) drawExchanges((await api('/api/model')).exchanges);
	} catch (error) {
		if (error instanceof SandboxGone) showStopped('stopped');
		else toast(error.message);
	} finally {
		refreshing = false;
		if (again) {
			again = false;
			void refresh();
		}
	}
}

function selectChannel(channelId) {
	view.channelId = channelId;
	box.close();
	closeDrawers();
	drawSidebar();
	$('messages').replaceChildren();
	view.toBottom = true;
	return refresh();
}

/** A link to a message of this server ("Jump to the member's notice") opens it here, not on discord.com. */
async function jumpTo(channelId, messageId) {
	if (!view.state.channels.some((c) => c.id === channelId)) return toast(`${person().name} cannot see that channel.`);
	if (channelId !== view.channelId) await selectChannel(channelId);
	const message = $('messages').querySelector(`[data-id="${messageId}"]`);
	if (!message) return toast('That message is gone, or only its author can see it.');
	message.scrollIntoView({ block: 'center' });
	message.classList.add('highlight');
	window.setTimeout(() => message.classList.remove('highlight'), 2500);
}

// ---- the composer ----

function onComposerKey(event) {
	if (event.key !== 'Enter' || box.onKey(event)) return;
	event.preventDefault();
	const text = $('composer-input').value.trim();
	if (!text) return;
	$('composer-input').value = '';
	void act(api('/api/post', { person: view.person, channelId: view.channelId, content: text }), { toBottom: true }).then(
		(posted) => posted && refresh(),
	);
}

// ---- buttons, the Apps menu and dialogs ----

function pressButton(message, customId) {
	void act(api('/api/button', { person: view.person, messageId: message.id, customId }));
}

/** The message's Apps menu, under its button or where it was right-clicked. */
function openAppsMenu(message, at) {
	const menu = $('apps-menu');
	const apps = visibleCommands(view.state.commands, person(), channel()).filter((c) => c.type === 3);
	const pick = (command) => {
		menu.hidden = true;
		// The message the form is about stays in view, marked, while the form is open.
		view.target = message.id;
		$('messages').querySelector(`[data-id="${message.id}"]`)?.classList.add('targeted');
		void act(api('/api/apps', { person: view.person, messageId: message.id, name: command.name })).then(() => {
			if (!$('modal').open) clearTarget();
		});
	};
	menu.replaceChildren(
		h('div', { className: 'menu-title' }, 'Apps'),
		...apps.map((c) => h('button', { type: 'button', role: 'menuitem', onclick: () => pick(c) }, localName(c, person().locale))),
	);
	const point = at instanceof window.Element ? at.getBoundingClientRect() : { bottom: at.y, right: at.x + 180 };
	menu.hidden = false;
	menu.style.top = `${Math.min(point.bottom + 4, window.innerHeight - menu.offsetHeight - 8)}px`;
	menu.style.left = `${Math.max(8, Math.min(point.right - 180, window.innerWidth - 188))}px`;
}

function clearTarget() {
	view.target = undefined;
	for (const m of $('messages').querySelectorAll('.targeted')) m.classList.remove('targeted');
}

function openModal(modal) {
	view.modalCustomId = modal.custom_id;
	$('modal-title').textContent = modal.title ?? '';
	$('modal-fields').replaceChildren(...modalInputs(modal).map(renderInput));
	const list = $('messages');
	const top = list.scrollTop;
	$('modal').showModal();
	$('modal-fields').querySelector('input, textarea')?.focus({ preventScroll: true });
	list.scrollTop = top;
	if (view.target) list.querySelector(`[data-id="${view.target}"]`)?.scrollIntoView({ block: 'nearest' });
}

function submitModal(event) {
	event.preventDefault();
	const fields = {};
	for (const field of $('modal-fields').querySelectorAll('input, textarea')) fields[field.name] = field.value;
	const customId = view.modalCustomId;
	// Closed once the sandbox has it: a stopped sandbox loses nothing that was typed.
	void act(api('/api/modal', { person: view.person, customId, fields }), { toBottom: !view.target }).then((sent) => {
		if (sent && view.modalCustomId === customId) $('modal').close();
	});
}

// ---- start ----

$('person-select').addEventListener('change', (event) => {
	view.person = event.target.value;
	box.close();
	void loadState().catch((error) => toast(error.message));
});
$('person-locale').addEventListener('change', (event) => {
	void act(api('/api/person', { person: view.person, locale: event.target.value })).then(() => loadState());
});
$('composer-input').addEventListener('input', box.onInput);
$('composer-input').addEventListener('keydown', onComposerKey);
$('command-form').addEventListener('submit', box.submit);
$('modal-form').addEventListener('submit', submitModal);
$('modal-cancel').addEventListener('click', () => $('modal').close());
$('modal').addEventListener('close', clearTarget);
bindModelPanel(() => view.state.model);
bindLayout();
bindStopped();
document.addEventListener('click', (event) => {
	if (!event.target.closest('#apps-menu, .apps-button')) $('apps-menu').hidden = true;
});
$('messages').addEventListener('contextmenu', (event) => {
	const item = event.target.closest('.message');
	if (!item || event.target.closest('a, input, textarea')) return;
	event.preventDefault();
	openAppsMenu({ id: item.dataset.id }, { x: event.clientX, y: event.clientY });
});

const initial = new URLSearchParams(window.location.search).get('person');
if (initial) view.person = initial;
loadState()
	.then(() => {
		const events = new EventSource('/api/events');
		events.addEventListener('changed', () => void refresh());
		events.addEventListener('model', (event) => applyChoices(view.state.model, JSON.parse(event.data)));
		events.addEventListener('hello', (event) => {
			const { instance } = JSON.parse(event.data);
			showStopped(instance === view.state.instance ? undefined : 'restarted');
		});
		events.addEventListener('error', () => showStopped('stopped'));
		document.body.dataset.ready = 'true';
	})
	.catch((error) => (error instanceof SandboxGone ? showStopped('stopped') : toast(error.message)));
