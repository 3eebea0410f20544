// SPDX-License-Identifier: GPL-2.0-or-later
/* The controls' wiring, and the start: meta, series, flags, panes. */
'use strict';

function redraw() {
	return loadSeries(st.scale).then(drawPanes);
}

function controls() {
	$('scale').addEventListener('change', (e) => {
		st.scale = e.target.value;
		redraw().then(() => setView(st.view[0], st.view[1]))
			.catch(fail);
	});
	$('field').addEventListener('change', (e) => {
		st.field = e.target.value;
		drawPanes();
	});
	$('overlap').addEventListener('change', (e) => {
		st.overlap = e.target.checked;
		drawPanes();
	});
	$('normalize').addEventListener('change', (e) => {
		st.normalize = e.target.checked;
		drawPanes();
	});
	$('pan-left').addEventListener('click', () => pan(-0.5));
	$('pan-right').addEventListener('click', () => pan(0.5));
	$('zoom-in').addEventListener('click', () => zoom(0.5));
	$('zoom-out').addEventListener('click', () => zoom(2));
	$('zoom-all').addEventListener('click', () => {
		const w = wholeView();
		setView(w[0], w[1]);
	});
	$('take-a').addEventListener('click', () => take('a'));
	$('take-b').addEventListener('click', () => take('b'));
	$('run-diff').addEventListener('click', () => runDiff().catch(fail));
	for (const id of ['f-exec', 'f-uid', 'f-pid', 'f-site', 'f-text'])
		$(id).addEventListener('input', () => st.epoch && drawSamples());
	let pending = 0;
	window.addEventListener('resize', () => {
		clearTimeout(pending);
		pending = setTimeout(drawPanes, 150);
	});
}

/*
 * The panes first, then the flags: a long store's flags take longer to
 * answer than its series, and the server answers one request at a time
 * (body's data-ready and data-flags say which are in).
 */
function start() {
	const emb = window.STP_EMBED;
	controls();
	setStatus('loading');
	return api('/api/meta').then((j) => {
		st.meta = normMeta(j);
		if (emb) {	/* the report's range, not the whole store's */
			st.meta.first = emb.first;
			st.meta.last = emb.last;
		}
		st.vitals = st.meta.vitals.map((v) => v.name);
		/* "": the machine had no name set when stprun wrote it */
		$('where').textContent = (st.meta.host ||
			'no host name recorded') + ' \u2014 ' +
			fmtTime(st.meta.first) + ' to ' + fmtTime(st.meta.last) +
			(emb ? ' (report written ' + emb.written + ')' : '');
		return loadSeries('epoch');
	}).then(() => {
		st.view = wholeView();
		drawPanes();
		document.body.dataset.ready = '1';
		setStatus('loading the flags');
		return loadFlags();
	}).then(() => {
		for (const p of st.plots)
			p.u.redraw(false);
		document.body.dataset.flags = '1';
	}).then(() => setStatus('')).catch(fail);
}

/* For the browser test: the plots, to click where an epoch is drawn. */
window.stpPage = { state: st, setView, openEpoch };
start();
