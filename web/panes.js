// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The vital signs' panes (uPlot): one per vital sign, or all of them
 * overlapped in one; their shared X view, zoom and pan.
 */
'use strict';

function bucketMs() {
	if (st.scale === 'hour')
		return HOUR;
	if (st.scale === 'day')
		return DAY;
	return epochMs();
}

/*
 * The epochs' length: the median of the series' steps (the newest epoch,
 * which meta's epoch_ms measures, is cut short when the collector stops).
 */
function epochMs() {
	const t = (st.series.epoch || {}).t || [];
	const d = t.slice(1).map((x, i) => x - t[i]).sort((a, b) => a - b);
	if (d.length)
		return d[d.length >> 1];
	return st.meta.epochMs || 60e3;
}

/*
 * The whole store, but at most the server's limit of buckets, the newest
 * (a store of more epochs than that is read by the hour or the day).
 * A report embeds its range's series without the range in the path.
 */
function seriesPath(scale) {
	if (window.STP_EMBED)
		return '/api/series?scale=' + scale;
	const len = { epoch: st.meta.epochMs || 60e3, hour: HOUR, day: DAY };
	const m = st.meta, n = scale === 'epoch' ? m.epochs :
		Math.ceil((m.last - m.first) / len[scale]) + 1;
	const from = n > m.maxBuckets ? Math.max(m.first, m.last -
		(m.maxBuckets - 1) * len[scale]) : m.first;
	return '/api/series?scale=' + scale + '&from=' + from + '&to=' +
		m.last;
}

function loadSeries(scale) {
	if (st.series[scale])
		return Promise.resolve(st.series[scale]);
	return api(seriesPath(scale)).then((j) => {
		st.series[scale] = normSeries(j);
		return st.series[scale];
	});
}

/*
 * A bucket where no epoch could measure the vital sign has no value: the
 * store's 0 there is no measurement, and a line at 0 would say it is.
 */
function column(s, vital) {
	const c = s.vitals.find((v) => v.name === vital);
	let y = c ? c[st.field].map((x, i) => (c.available[i] === false ?
		null : x)) : s.t.map(() => null);
	if (st.normalize) {
		const max = Math.max(0, ...y.filter((x) => x !== null));
		y = y.map((x) => (x === null || !max ? x : x / max));
	}
	return y;
}

/* A Y tick short enough for the axis: 950, 12k, 4.2M, -3G. */
function short(x) {
	const a = Math.abs(x);
	for (const [d, suf] of [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']])
		if (a >= d)
			return +(x / d).toPrecision(3) + suf;
	return String(+x.toPrecision(3));
}

function paneTitle(vital) {
	const meta = st.meta.vitals.find((v) => v.name === vital);
	const h = document.createElement('h3');
	h.textContent = vital;
	if (meta && !meta.available) {
		const why = document.createElement('span');
		why.className = 'why';
		why.textContent = ' unavailable: ' + (meta.why || '');
		h.appendChild(why);
	}
	return h;
}

/*
 * empty: the pane has no value; its Y gets a range all the same, without
 * which uPlot draws no Y axis and the pane's X would not line up with
 * the others'.
 */
function plotOpts(vitals, height, empty) {
	return {
		width: Math.max(300, $('panes').clientWidth - 4),
		height,
		ms: 1,
		/* UTC, as the hour and day buckets and the times listed */
		tzDate: (ms) => uPlot.tzDate(new Date(ms), 'Etc/UTC'),
		cursor: { drag: { x: true, y: false, setScale: false },
			sync: { key: 'stp' } },
		scales: { x: { time: true, min: st.view[0], max: st.view[1] },
			y: st.normalize || empty ? { range: [0, 1] } : {} },
		legend: { show: vitals.length > 1 },
		axes: [{}, { size: 56, values: (u, v) => v.map(short) }],
		series: [{}].concat(vitals.map((v) => ({
			label: v,
			stroke: COLORS[st.vitals.indexOf(v) % COLORS.length],
			width: 1.5,
			/*
			 * uPlot draws no line through a lone value (a range of
			 * one epoch, a value between gaps): its points do, and
			 * it shows them while they are far enough apart to tell
			 * (its default show); filled, to read as values.
			 */
			points: { size: 7, fill: COLORS[st.vitals.indexOf(v) %
				COLORS.length] },
		}))),
		hooks: {
			setSelect: [onSelect],
			drawClear: [drawBands],
			draw: [drawFlags],
		},
	};
}

function drawPanes() {
	const s = st.series[st.scale], box = $('panes');
	for (const p of st.plots)
		p.u.destroy();
	st.plots = [];
	box.textContent = '';
	const groups = st.overlap ? [st.vitals] : st.vitals.map((v) => [v]);
	for (const g of groups) {
		const pane = document.createElement('div');
		pane.className = 'pane';
		pane.dataset.vital = st.overlap ? '*' : g[0];
		if (!st.overlap)
			pane.appendChild(paneTitle(g[0]));
		box.appendChild(pane);
		const data = [s.t].concat(g.map((v) => column(s, v)));
		const empty = !data.slice(1).some((y) => y.some((x) =>
			x !== null));
		const u = new uPlot(plotOpts(g, st.overlap ? 360 : 110, empty),
			data, pane);
		if (empty)
			pane.appendChild(noData());
		const vital = st.overlap ? null : g[0];
		st.plots.push({ u, vital });
		clickable(u, vital);
	}
}

/* Over a pane with no value to draw, which would otherwise look broken. */
function noData() {
	const p = document.createElement('p');
	p.className = 'nodata';
	p.textContent = 'no data in this range';
	return p;
}

/* A click that did not drag opens the epoch under the cursor. */
function clickable(u, vital) {
	let down = null;
	u.over.addEventListener('mousedown', (e) => {
		down = [e.clientX, e.clientY];
		st.drag = { u, shift: e.shiftKey };
	});
	u.over.addEventListener('click', (e) => {
		if (!down || Math.abs(e.clientX - down[0]) > 3 ||
		    Math.abs(e.clientY - down[1]) > 3)
			return;
		const idx = u.posToIdx(e.clientX -
			u.over.getBoundingClientRect().left);
		if (idx !== null && idx >= 0 && idx < u.data[0].length)
			openBucket(u.data[0][idx], vital).catch(fail);
	});
}

/*
 * A drag's selection (the panes' cursors are synced, so every pane gets
 * it: only the one dragged on acts).
 */
function onSelect(u) {
	if (u.select.width < 2)
		return;
	const min = u.posToVal(u.select.left, 'x');
	const max = u.posToVal(u.select.left + u.select.width, 'x');
	u.setSelect({ left: 0, width: 0, top: 0, height: 0 }, false);
	if (!st.drag || st.drag.u !== u)
		return;
	if (st.drag.shift)	/* a range for the diff, not a zoom */
		takeRange(Math.round(min), Math.round(max));
	else
		setView(min, max);
}

/* The X range of every pane; never narrower than one bucket. */
function setView(min, max) {
	const least = bucketMs();
	if (max - min < least) {
		const mid = (min + max) / 2;
		min = mid - least / 2;
		max = mid + least / 2;
	}
	st.view = [Math.round(min), Math.round(max)];
	for (const p of st.plots)
		p.u.setScale('x', { min: st.view[0], max: st.view[1] });
}

function wholeView() {
	const s = st.series[st.scale];
	const t = s && s.t.length ? s.t : [st.meta.first, st.meta.last];
	const end = Math.max(st.meta.last || 0, t[t.length - 1] +
		bucketMs());
	return [Math.min(st.meta.first, t[0]), end];
}

function pan(fraction) {
	const w = st.view[1] - st.view[0];
	setView(st.view[0] + w * fraction, st.view[1] + w * fraction);
}

function zoom(factor) {
	const mid = (st.view[0] + st.view[1]) / 2;
	const w = (st.view[1] - st.view[0]) * factor;
	setView(mid - w / 2, mid + w / 2);
}
