/* global document, window, EventSource, URLSearchParams */
import { h, modalInputs, renderInput, renderMessage } from './render.js';
import { api, toast } from './api.js';
import { chooseModel, drawExchanges, drawModelPanel } from './model.js';

// The sandbox page: what the chosen person sees, and their clicks carried to the sandbox server, which acts on
// the local Discord for them. Live updates come as Server-Sent Events.

const $ = (id) => document.getElementById(id);
const view = { person: 'member', channelId: '', state: undefined, command: undefined, modalCustomId: undefined, toBottom: true, counts: {} };
/** Messages each person has seen per channel (`person:channel`): more in a channel marks it as having news. */
const seen = new Map();

/** Carries out a page action: its answer shows at the bottom, a dialog Veil opened opens here. */
function act(promise) {
	view.toBottom = true;
	return promise.then((result) => result?.modal && openModal(result.modal)).catch((error) => toast(error.message));
}

function names() {
	const { state } = view;
	return {
		people: new Map([...state.people.map((p) => [p.id, p.name]), [state.veil.id, state.veil.name]]),
		channels: new Map(state.allChannels.map((c) => [c.id, c.name])),
	};
}

// ---- loading and drawing ----

async function loadState() {
	view.state = await api(`/api/state?person=${view.person}`);
	const channels = view.state.channels;
	if (!channels.some((c) => c.id === view.channelId)) view.channelId = channels[0].id;
	drawSidebar();
	drawModelPanel(view.state.model);
	view.toBottom = true;
	await refresh();
}

function drawSidebar() {
	const { state } = view;
	$('server-name').textContent = state.server;
	$('channels').replaceChildren(
		...state.channels.map((channel) =>
			h(
				'button',
				{
					type: 'button',
					className: `channel${channel.id === view.channelId ? ' current' : ''}${hasNews(channel.id) ? ' news' : ''}`,
					'data-channel': channel.name,
					onclick: () => selectChannel(channel.id),
				},
				channel.kind === 'dm' ? `@ ${channel.name}` : `# ${channel.name}`,
			),
		),
	);
	const person = state.people.find((p) => p.key === view.person);
	$('person-role').textContent = `${person.name}: ${person.role}`;
	const channel = state.channels.find((c) => c.id === view.channelId);
	$('channel-name').textContent = channel.kind === 'dm' ? `@ ${channel.name}` : `# ${channel.name}`;
	$('channel-topic').textContent = channel.topic;
	$('composer-input').placeholder = `Message ${channel.kind === 'dm' ? '@' : '#'}${channel.name} — type / for Veil's commands`;
}

function hasNews(channelId) {
	return channelId !== view.channelId && (view.counts[channelId] ?? 0) > (seen.get(`${view.person}:${channelId}`) ?? 0);
}

let refreshing = false;
let again = false;
async function refresh() {
	if (refreshing) return void (again = true);
	refreshing = true;
	try {
		const { messages, counts } = await api(`/api/messages?person=${view.person}&channel=${view.channelId}`);
		view.counts = counts;
		seen.set(`${view.person}:${view.channelId}`, counts[view.channelId]);
		drawSidebar();
		const list = $('messages');
		const atBottom = view.toBottom || list.scrollHeight - list.scrollTop - list.clientHeight < 40;
		view.toBottom = false;
		const actions = { button: pressButton, apps: openAppsMenu };
		list.replaceChildren(...messages.map((m) => renderMessage(m, names(), actions)));
		if (atBottom) list.scrollTop = list.scrollHeight;
		if (view.state.model.local) drawExchanges((await api('/api/model')).exchanges);
	} catch (error) {
		toast(error.message);
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
	closeCommand();
	drawSidebar();
	$('messages').replaceChildren();
	view.toBottom = true;
	void refresh();
}

// ---- the command box ----

function slashCommands() {
	return view.state.commands.filter((c) => c.type === 1);
}

function onComposerInput() {
	const text = $('composer-input').value;
	const list = $('command-suggestions');
	if (!text.startsWith('/')) return void (list.hidden = true);
	const typed = text.slice(1).split(' ')[0].toLowerCase();
	const matches = slashCommands().filter((c) => c.name.startsWith(typed));
	list.replaceChildren(
		...matches.map((c) =>
			h(
				'li',
				{ role: 'option', className: 'suggestion', 'data-command': c.name, onclick: () => openCommand(c) },
				h('strong', {}, `/${c.name}`),
				` ${c.description}`,
			),
		),
	);
	list.hidden = matches.length === 0;
}

function onComposerKey(event) {
	if (event.key !== 'Enter') return;
	event.preventDefault();
	const text = $('composer-input').value.trim();
	if (!text) return;
	if (text.startsWith('/')) {
		const command = slashCommands().find((c) => c.name === text.slice(1).split(' ')[0]);
		if (command) openCommand(command, text.slice(command.name.length + 2));
		else toast(`Veil has no command ${text.split(' ')[0]}.`);
		return;
	}
	$('composer-input').value = '';
	act(api('/api/post', { person: view.person, channelId: view.channelId, content: text }));
}

/** The options form of a command: subcommands as a choice, then each option as a field of its type. */
function openCommand(command, firstValue = '') {
	view.command = command;
	$('command-suggestions').hidden = true;
	$('composer-input').value = `/${command.name} `;
	const subcommands = (command.options ?? []).flatMap((o) =>
		o.type === 1 ? [[o.name, o]] : o.type === 2 ? (o.options ?? []).map((s) => [`${o.name} ${s.name}`, s]) : [],
	);
	const form = $('command-form');
	const fields = h('div', { className: 'command-fields' });
	const drawFields = (options) => {
		fields.replaceChildren(...(options ?? []).map(optionField));
		const first = fields.querySelector('input, textarea, select');
		if (first && firstValue && first.type === 'text') first.value = firstValue;
		first?.focus();
	};
	const picker =
		subcommands.length > 0 &&
		h(
			'select',
			{ name: '__subcommand', 'aria-label': 'Subcommand', onchange: (e) => drawFields(subcommands.find(([n]) => n === e.target.value)[1].options) },
			subcommands.map(([name]) => h('option', {}, name)),
		);
	form.replaceChildren(
		h('div', { className: 'command-title' }, h('strong', {}, `/${command.name}`), ` ${command.description}`),
		picker || '',
		fields,
		h(
			'div',
			{ className: 'command-buttons' },
			h('button', { type: 'submit', className: 'button primary' }, 'Send'),
			h('button', { type: 'button', className: 'button secondary', onclick: closeCommand }, 'Cancel'),
		),
	);
	form.hidden = false;
	drawFields(subcommands.length > 0 ? subcommands[0][1].options : command.options);
}

function optionField(option) {
	const label = `${option.name}${option.required ? ' *' : ''}`;
	const attributes = { name: option.name, 'data-type': option.type, required: option.required === true, title: option.description };
	let input;
	if (option.type === 5)
		input = h(
			'select',
			attributes,
			h('option', { value: '' }, '—'),
			h('option', { value: 'true' }, 'True'),
			h('option', { value: 'false' }, 'False'),
		);
	else if (option.type === 7)
		input = h(
			'select',
			attributes,
			h('option', { value: '' }, '—'),
			view.state.allChannels.map((c) => h('option', { value: c.id }, `#${c.name}`)),
		);
	else if (option.type === 6)
		input = h(
			'select',
			attributes,
			h('option', { value: '' }, '—'),
			view.state.people.map((p) => h('option', { value: p.id }, p.name)),
		);
	else if (option.choices)
		input = h(
			'select',
			attributes,
			h('option', { value: '' }, '—'),
			option.choices.map((c) => h('option', { value: c.value }, c.name)),
		);
	else if (option.type === 4 || option.type === 10)
		input = h('input', { ...attributes, type: 'number', min: option.min_value, max: option.max_value, step: option.type === 4 ? 1 : 'any' });
	else if (option.type === 3)
		input = h('input', { ...attributes, type: 'text', minlength: option.min_length, maxlength: option.max_length, placeholder: option.description });
	else if (option.type === 11) input = h('input', { ...attributes, type: 'file' });
	else input = h('input', { ...attributes, type: 'text', disabled: true, required: false, placeholder: 'not in the sandbox' });
	return h('label', { className: 'command-option' }, h('span', {}, label), input);
}

function closeCommand() {
	view.command = undefined;
	$('command-form').hidden = true;
	$('command-suggestions').hidden = true;
	$('composer-input').value = '';
}

async function sendCommand(event) {
	event.preventDefault();
	const form = $('command-form');
	const options = [];
	const files = {};
	for (const field of form.querySelectorAll('[data-type]')) {
		if (field.value === '' || field.disabled) continue;
		const type = Number(field.dataset.type);
		if (type === 11) {
			const file = field.files[0];
			files[field.name] = { filename: file.name, contentType: file.type, base64: await base64Of(file) };
			options.push({ type, name: field.name, value: `file:${field.name}` });
			continue;
		}
		const value = type === 5 ? field.value === 'true' : type === 4 || type === 10 ? Number(field.value) : field.value;
		options.push({ type, name: field.name, value });
	}
	const sub = form.querySelector('[name="__subcommand"]')?.value;
	let wrapped = options;
	if (sub) {
		const [first, second] = sub.split(' ');
		wrapped = second ? [{ type: 2, name: first, options: [{ type: 1, name: second, options }] }] : [{ type: 1, name: first, options }];
	}
	const name = view.command.name;
	closeCommand();
	act(api('/api/command', { person: view.person, channelId: view.channelId, name, options: wrapped, files }));
}

async function base64Of(file) {
	let binary = '';
	for (const byte of new Uint8Array(await file.arrayBuffer())) binary += String.fromCharCode(byte);
	return window.btoa(binary);
}

// ---- buttons, the Apps menu and dialogs ----

function pressButton(message, customId) {
	act(api('/api/button', { person: view.person, messageId: message.id, customId }));
}

function openAppsMenu(message, anchor) {
	const menu = $('apps-menu');
	const apps = view.state.commands.filter((c) => c.type === 3);
	menu.replaceChildren(
		h('div', { className: 'menu-title' }, 'Apps'),
		...apps.map((c) =>
			h(
				'button',
				{
					type: 'button',
					role: 'menuitem',
					onclick: () => ((menu.hidden = true), act(api('/api/apps', { person: view.person, messageId: message.id, name: c.name }))),
				},
				c.name,
			),
		),
	);
	const box = anchor.getBoundingClientRect();
	menu.style.top = `${box.bottom + window.scrollY + 4}px`;
	menu.style.left = `${Math.max(8, box.right - 180)}px`;
	menu.hidden = false;
}

function openModal(modal) {
	view.modalCustomId = modal.custom_id;
	$('modal-title').textContent = modal.title ?? '';
	$('modal-fields').replaceChildren(...modalInputs(modal).map(renderInput));
	$('modal').showModal();
	$('modal-fields').querySelector('input, textarea')?.focus();
}

function submitModal(event) {
	event.preventDefault();
	const fields = {};
	for (const field of $('modal-fields').querySelectorAll('input, textarea')) fields[field.name] = field.value;
	$('modal').close();
	act(api('/api/modal', { person: view.person, customId: view.modalCustomId, fields }));
}

// ---- start ----

$('person-select').addEventListener('change', (event) => {
	view.person = event.target.value;
	closeCommand();
	void loadState().catch((error) => toast(error.message));
});
$('composer-input').addEventListener('input', onComposerInput);
$('composer-input').addEventListener('keydown', onComposerKey);
$('command-form').addEventListener('submit', sendCommand);
$('modal-form').addEventListener('submit', submitModal);
$('modal-cancel').addEventListener('click', () => $('modal').close());
$('model-form').addEventListener('change', () => chooseModel(view.state.model));
document.addEventListener('click', (event) => {
	if (!event.target.closest('#apps-menu, .apps-button')) $('apps-menu').hidden = true;
});

const initial = new URLSearchParams(window.location.search).get('person');
if (initial) view.person = initial;
loadState()
	.then(() => {
		$('person-select').replaceChildren(...view.state.people.map((p) => h('option', { value: p.key, selected: p.key === view.person }, p.label)));
		new EventSource('/api/events').addEventListener('changed', () => void refresh());
		document.body.dataset.ready = 'true';
	})
	.catch((error) => toast(error.message));
