/* global document */
import { api, SandboxGone, toast } from './api.js';
import { h } from './render.js';
import { showStopped } from './stopped.js';

// The model panel: the local model's next answers (ratings, delay, failure), and its latest calls. Its state is the
// server's: every tab shows what the server pushes, and a change sends only the choice it changed.

const $ = (id) => document.getElementById(id);

export function drawModelPanel(model) {
	$('model-form').hidden = !model.local;
	$('model-status').textContent = model.local
		? 'The local model answers. What you pick here applies to every answer from now on, in every tab.'
		: 'The real model service answers: nothing to pick here.';
	if (!model.local) return;
	$('model-category').replaceChildren(
		...model.categories.map((c) => h('option', { value: c }, c.replace('HARM_CATEGORY_', '').replaceAll('_', ' ').toLowerCase())),
	);
	const seconds = model.timeoutMs / 1000;
	$('model-delay').max = String(model.timeoutMs * 3);
	$('model-delay-note').textContent =
		`Veil gives up on a call after ${seconds} s and tries 3 times: a delay over ${model.timeoutMs} ms shows its time-out.`;
	applyChoices(model, model.choices);
}

// Choices this tab has sent and the server has not yet answered. A push or an answer to another field's change holds
// the server's older value for these; showing it would undo, under the pointer, what was just picked.
const unanswered = new Map();

/** Shows choices the server holds (pushed after any tab's change); a field being typed in or sent is left alone. */
export function applyChoices(model, choices) {
	model.choices = choices;
	const { rating, delayMs, failure } = choices;
	if (!unanswered.get('rating')) {
		document.querySelector(`input[name="rating"][value="${rating ? 'one' : 'clear'}"]`).checked = true;
		if (rating) {
			$('model-category').value = rating.category;
			$('model-level').value = rating.level;
		}
	}
	if (!unanswered.get('delayMs') && document.activeElement !== $('model-delay')) $('model-delay').value = String(delayMs);
	if (!unanswered.get('failure')) $('model-failure').value = failure;
}

/** Each field sends its own choice: a tab that shows an older panel cannot undo what it did not change. */
export function bindModelPanel(model) {
	const send = (change) => {
		const keys = Object.keys(change);
		for (const key of keys) unanswered.set(key, (unanswered.get(key) ?? 0) + 1);
		const answered = () => {
			for (const key of keys) unanswered.set(key, unanswered.get(key) - 1);
		};
		return api('/api/model', change).then(
			(result) => {
				answered();
				applyChoices(model(), result.choices);
			},
			(error) => {
				answered();
				if (error instanceof SandboxGone) showStopped('stopped');
				else toast(error.message);
			},
		);
	};
	const rating = () =>
		send({
			rating:
				document.querySelector('input[name="rating"]:checked').value === 'one'
					? { category: $('model-category').value, level: $('model-level').value }
					: null,
		});
	for (const input of document.querySelectorAll('input[name="rating"]')) input.addEventListener('change', rating);
	$('model-category').addEventListener('change', () => {
		document.querySelector('input[name="rating"][value="one"]').checked = true;
		rating();
	});
	$('model-level').addEventListener('change', () => {
		document.querySelector('input[name="rating"][value="one"]').checked = true;
		rating();
	});
	$('model-delay').addEventListener('change', () => {
		const max = Number($('model-delay').max);
		send({ delayMs: Math.max(0, Math.min(max, Math.round(Number($('model-delay').value) || 0))) });
	});
	$('model-failure').addEventListener('change', () => send({ failure: $('model-failure').value }));
}

function outcomeOf(x) {
	if (x.abandoned) return 'Veil gave up (its time-out)';
	if (x.status === 0) return 'no answer yet';
	const ratings = x.answer?.candidates?.[0]?.safetyRatings
		?.filter((r) => r.probability !== 'NEGLIGIBLE')
		.map((r) => `${r.category.replace('HARM_CATEGORY_', '')} ${r.probability}`);
	if (ratings?.length) return `${x.status} · ${ratings.join(', ')}`;
	return x.endpoint === 'generate' && x.status === 200 ? '200 · all NEGLIGIBLE' : String(x.status);
}

export function drawExchanges(exchanges) {
	$('model-exchanges').replaceChildren(
		...exchanges
			.slice(-6)
			.reverse()
			.map((x) =>
				h(
					'li',
					{ className: `exchange${x.abandoned ? ' abandoned' : ''}` },
					h('strong', {}, x.endpoint),
					` ${x.prompt ? `“${x.prompt.slice(0, 40)}”` : ''}${x.files ? ` + ${x.files.length} file(s)` : ''} → ${outcomeOf(x)}`,
				),
			),
	);
}
