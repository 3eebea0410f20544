// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp-vitals' page: each vital sign's line over time (uPlot), the rules'
 * flags on the timeline, an epoch's samples on a click, the diff of two
 * ranges.  Everything comes from the JSON API (vitals/api.h, README.md
 * "The web page's API"); in a report written by `stp-vitals report` the
 * same answers are embedded in window.STP_EMBED, keyed by the request's
 * path, so the page asks for exactly the paths the report embeds: the
 * series and flags (in a report, without their range), an epoch by its
 * start, and an epoch's samples unfiltered (filters apply here, in the
 * page).
 *
 * The API's shapes are read through the norm* functions only, so that a
 * change of shape is one place to follow.
 */
'use strict';
(function () {
const $ = (id) => document.getElementById(id);
const HOUR = 3600e3, DAY = 86400e3;
const FIELDS = ['weight', 'events', 'unique', 'samples', 'dropped'];
const COLORS = ['#1e88e5', '#e53935', '#43a047', '#fb8c00', '#8e24aa',
	'#00897b', '#6d4c41', '#3949ab', '#c0ca33', '#d81b60', '#546e7a',
	'#00acc1'];

const st = {
	meta: null,		/* normMeta */
	vitals: [],		/* names, in the store's order */
	scale: 'epoch',
	field: 'weight',
	overlap: false,
	normalize: false,
	series: {},		/* scale -> normSeries */
	view: null,		/* [min, max] ms on X */
	flags: [],		/* normFlag, evaluated or not */
	spans: [],		/* per rule, its flags' epochs merged */
	bands: [],		/* every rule's flags' epochs merged */
	plots: [],		/* { u, vital (null when overlapped) } */
	epoch: null,		/* the epoch whose samples are listed */
	samples: [],		/* normSample */
	shown: new Set(),	/* the vitals whose samples are listed */
	a: null, b: null,	/* the diff's ranges */
};

/* ---- the API ---- */

function api(path) {
	const emb = window.STP_EMBED;
	if (emb) {
		const j = Object.prototype.hasOwnProperty.call(emb.answers,
			path) ? emb.answers[path] : undefined;
		if (j && j.error)
			return Promise.reject(new Error(path + ': ' + j.error));
		if (j)
			return Promise.resolve(j);
		return Promise.reject(new Error(path +
			': not in this report (stp-vitals serve answers it)'));
	}
	return fetch(path).then((r) => r.text().then((text) => {
		let j;
		try {
			j = JSON.parse(text);
		} catch (e) {
			throw new Error(path + ': ' + r.status + ' ' +
				r.statusText + ' (not JSON)');
		}
		if (!r.ok || (j && j.error))
			throw new Error(path + ': ' + (j.error || r.status));
		return j;
	}));
}

/* A time as Unix ms: ms numbers, ns numbers, or RFC 3339 text. */
function toMs(x) {
	if (x === null || x === undefined)
		return null;
	if (typeof x === 'string')
		return /^\d+$/.test(x) ? toMs(Number(x)) : Date.parse(x);
	return x > 1e15 ? Math.round(x / 1e6) : x;
}

function pick(o, ...keys) {
	for (const k of keys)
		if (o && o[k] !== undefined)
			return o[k];
	return undefined;
}

function list(j, ...keys) {
	return Array.isArray(j) ? j : (pick(j, ...keys) || []);
}

function normMeta(j) {
	const vitals = list(pick(j, 'vitals') || [], 'vitals').map((v) =>
		typeof v === 'string' ? { name: v, available: true } : {
			name: pick(v, 'name', 'vital'),
			available: pick(v, 'available') !== false,
			why: pick(v, 'why'),
		});
	return {
		host: pick(j, 'host') || '',
		first: toMs(pick(j, 'first', 'from', 'first_ms', 'start')),
		last: toMs(pick(j, 'last', 'to', 'last_ms', 'end')),
		epochMs: pick(j, 'epoch_ms', 'epoch_len_ms') || null,
		epochs: pick(j, 'epochs'),
		maxBuckets: pick(pick(j, 'limits') || {}, 'buckets') || 20000,
		vitals,
	};
}

/* Column arrays of one vital: {name, available, why, weight: [], ...}. */
function normColumns(name, c) {
	const out = { name, available: pick(c, 'available') !== false,
		why: pick(c, 'why') };
	for (const f of FIELDS)
		out[f] = (f === 'events' ? pick(c, 'events', 'count') :
			pick(c, f)) || [];
	return out;
}

/* Rows of points ({start, vital, weight, ...}) pivoted into columns. */
function pivot(rows) {
	const t = [], at = new Map(), by = new Map();
	for (const p of rows) {
		const s = toMs(pick(p, 'start', 'start_ms', 't'));
		if (!at.has(s)) {
			at.set(s, t.length);
			t.push(s);
		}
	}
	for (const p of rows) {
		const name = pick(p, 'vital', 'name');
		if (!by.has(name))
			by.set(name, normColumns(name, {}));
		const c = by.get(name), i = at.get(toMs(pick(p, 'start',
			'start_ms', 't')));
		for (const f of FIELDS) {
			while (c[f].length < t.length)
				c[f].push(null);
			c[f][i] = f === 'events' ? pick(p, 'events', 'count') :
				p[f];
		}
		if (p.available === false)
			c.available = false;
	}
	return { t, id: null, vitals: [...by.values()] };
}

function normSeries(j) {
	if (Array.isArray(j) || j.points)
		return pivot(list(j, 'points'));
	const t = (pick(j, 't', 'start', 'times', 'x') || []).map(toMs);
	let v = pick(j, 'vitals', 'series') || [];
	if (!Array.isArray(v))
		v = Object.keys(v).map((k) => normColumns(k, v[k]));
	else
		v = v.map((c) => normColumns(pick(c, 'vital', 'name'), c));
	return { t, id: pick(j, 'id', 'ids', 'epoch') || null, vitals: v };
}

function normFlag(f) {
	return {
		rule: pick(f, 'rule'),
		name: pick(f, 'name') || '',
		evaluated: pick(f, 'evaluated') !== false,
		whyNot: pick(f, 'why_not', 'why') || '',
		start: toMs(pick(f, 'start', 'start_ms', 'from')),
		end: toMs(pick(f, 'end', 'end_ms', 'to')),
		pid: pick(f, 'pid'),
		exec: pick(f, 'exec', 'program') || null,
		evidence: pick(f, 'evidence') || '',
	};
}

/*
 * Kernel frames come first, then user frames: the user stack begins after
 * the last "[kernel]" frame (the entry code), unless the API split them.
 */
function splitStack(s) {
	if (s.kstack !== undefined || s.ustack !== undefined)
		return [lines(s.kstack), lines(s.ustack)];
	const all = lines(s.stack);
	let k = 0;
	all.forEach((f, i) => {
		if (/ \[kernel\]$/.test(f))
			k = i + 1;
	});
	return [all.slice(0, k), all.slice(k)];
}

function lines(x) {
	if (!x)
		return [];
	return Array.isArray(x) ? x : String(x).split('\n').filter(Boolean);
}

function normSample(s) {
	const [k, u] = splitStack(s);
	return {
		time: toMs(pick(s, 'time', 'time_ms', 'time_ns')),
		vital: pick(s, 'vital') || '',
		exec: pick(s, 'exec') || '',
		uid: pick(s, 'uid'),
		pid: pick(s, 'pid'),
		site: pick(s, 'site') || '',
		data: pick(s, 'data') || '',
		weight: pick(s, 'weight'),
		kstack: k,
		ustack: u,
	};
}

/* ---- status ---- */

function status(text, isError) {
	const s = $('status');
	s.textContent = text;
	s.className = isError ? 'error' : '';
}

/* A failed request: said on the status line, and the page goes on. */
function fail(e) {
	status(String(e.message || e), true);
}

function fmtTime(ms) {
	return new Date(ms).toISOString().replace('T', ' ').replace('.000Z',
		'Z');
}

/* ---- the series and the panes ---- */

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

function column(s, vital) {
	const c = s.vitals.find((v) => v.name === vital);
	let y = c ? c[st.field].slice() : s.t.map(() => null);
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

function plotOpts(vitals, height) {
	return {
		width: Math.max(300, $('panes').clientWidth - 4),
		height,
		ms: 1,
		/* UTC, as the hour and day buckets and the times listed */
		tzDate: (ms) => uPlot.tzDate(new Date(ms), 'Etc/UTC'),
		cursor: { drag: { x: true, y: false, setScale: false },
			sync: { key: 'stp' } },
		scales: { x: { time: true, min: st.view[0], max: st.view[1] },
			y: st.normalize ? { range: [0, 1] } : {} },
		legend: { show: vitals.length > 1 },
		axes: [{}, { size: 56, values: (u, v) => v.map(short) }],
		series: [{}].concat(vitals.map((v) => ({
			label: v,
			stroke: COLORS[st.vitals.indexOf(v) % COLORS.length],
			width: 1.5,
			points: { show: false },
		}))),
		hooks: {
			setSelect: [onSelect],
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
		const u = new uPlot(plotOpts(g, st.overlap ? 360 : 110), data,
			pane);
		const vital = st.overlap ? null : g[0];
		st.plots.push({ u, vital });
		clickable(u, vital);
	}
}

/* A click that did not drag opens the epoch under the cursor. */
function clickable(u, vital) {
	let down = null;
	u.over.addEventListener('mousedown', (e) => {
		down = [e.clientX, e.clientY];
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

function onSelect(u) {
	if (u.select.width < 2)
		return;
	const min = u.posToVal(u.select.left, 'x');
	const max = u.posToVal(u.select.left + u.select.width, 'x');
	u.setSelect({ left: 0, width: 0, top: 0, height: 0 }, false);
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

/* ---- flags ---- */

/*
 * A store can hold tens of thousands of flags (a rule that fires in
 * every epoch), so they are drawn as spans: per rule, the union of its
 * flags' epochs, with the programs they name; the bands behind the lines
 * are the union over every rule.  The list shows the flags in the view,
 * at most LIST_MAX of them.
 */
const LIST_MAX = 100;

function loadFlags() {
	const path = window.STP_EMBED ? '/api/flags' : '/api/flags?from=' +
		st.meta.first + '&to=' + st.meta.last;
	return api(path).then((j) => {
		const no = list(pick(j, 'not_evaluated') || []).map((f) =>
			Object.assign({ evaluated: false }, f));
		st.flags = list(j, 'flags').map(normFlag)
			.concat(no.map(normFlag));
		st.spans = flagSpans(st.flags.filter((f) => f.evaluated));
		st.bands = unionOf(st.flags.filter((f) => f.evaluated));
		drawFlagList();
	});
}

/* Intervals [start, end) merged where they touch or overlap. */
function unionOf(fs) {
	const out = [];
	for (const f of fs.slice().sort((x, y) => x.start - y.start)) {
		const last = out[out.length - 1];
		if (last && f.start <= last.end) {
			last.end = Math.max(last.end, f.end);
			last.flags.push(f);
		} else {
			out.push({ start: f.start, end: f.end, flags: [f] });
		}
	}
	return out;
}

function flagSpans(fs) {
	const rules = [...new Set(fs.map((f) => f.rule))].sort((x, y) => x - y);
	return rules.flatMap((rule, row) => unionOf(fs.filter((f) =>
		f.rule === rule)).map((sp) => Object.assign(sp, { rule, row })));
}

function flagText(f) {
	let t = 'rule ' + f.rule + ' ' + f.name;
	if (!f.evaluated)
		return t + ': not evaluated: ' + f.whyNot;
	if (f.exec)
		t += ' \u2014 ' + f.exec;
	if (f.pid !== null && f.pid !== undefined && f.pid >= 0)
		t += ' (pid ' + f.pid + ')';
	return t + ' \u2014 ' + fmtTime(f.start) + ' \u2014 ' + f.evidence;
}

function flagItem(f) {
	const li = document.createElement('li');
	li.textContent = flagText(f);
	li.dataset.rule = f.rule;
	if (!f.evaluated)
		li.className = 'not-evaluated';
	else
		li.addEventListener('click', () => showFlag(f));
	return li;
}

function drawFlagList() {
	const ul = $('flaglist'), v = st.view;
	const shown = st.flags.filter((f) => f.evaluated && (!v ||
		(f.end > v[0] && f.start < v[1])));
	ul.textContent = '';
	for (const f of shown.slice(0, LIST_MAX))
		ul.appendChild(flagItem(f));
	if (shown.length > LIST_MAX) {
		const li = document.createElement('li');
		li.className = 'not-evaluated';
		li.textContent = (shown.length - LIST_MAX) + ' more in the ' +
			'view: zoom in to list them';
		ul.appendChild(li);
	}
	for (const f of st.flags.filter((x) => !x.evaluated))
		ul.appendChild(flagItem(f));
	if (!ul.children.length)
		ul.innerHTML = '<li class="not-evaluated">no flags</li>';
}

function showFlag(f) {
	const pad = 5 * bucketMs();
	setView(f.start - pad, Math.max(f.end, f.start) + pad);
	openEpoch(f.start, null).catch(fail);
}

/* A span's mark: one more span of its rule if it lies within 2 px. */
function spanMark(strip, last, sp, x0, x1) {
	if (last && last.rule === sp.rule && x0 <= last.x1 + 2) {
		last.x1 = Math.max(last.x1, x1);
		last.flags = last.flags.concat(sp.flags);
		last.end = sp.end;
		return last;
	}
	return { rule: sp.rule, row: sp.row, x0, x1, start: sp.start,
		end: sp.end, flags: sp.flags.slice() };
}

function putMark(strip, off, m) {
	const d = document.createElement('div');
	const execs = [...new Set(m.flags.map((f) => f.exec).filter(Boolean))];
	d.className = 'flag';
	d.style.top = (m.row * 17) + 'px';
	d.style.left = (off + m.x0) + 'px';
	d.style.width = Math.max(3, m.x1 - m.x0) + 'px';
	d.textContent = m.rule;
	d.title = m.flags.length + ' flag' + (m.flags.length > 1 ? 's' : '') +
		'\n' + m.flags.slice(0, 5).map(flagText).join('\n');
	d.dataset.rule = m.rule;
	d.dataset.start = m.start;
	d.dataset.end = m.end;
	d.dataset.exec = execs.slice(0, 20).join(' ');
	d.addEventListener('click', () => showFlag(m.flags[0]));
	strip.appendChild(d);
}

/* The spans as marks above the panes, one row per rule. */
function drawFlagStrip() {
	const strip = $('flagstrip'), spans = st.spans || [];
	strip.textContent = '';
	if (!st.plots.length)
		return;
	const u = st.plots[0].u;
	const off = u.over.getBoundingClientRect().left -
		strip.getBoundingClientRect().left;
	const marks = [];
	for (const sp of spans) {
		if (sp.end <= st.view[0] || sp.start >= st.view[1])
			continue;
		const x0 = Math.max(0, u.valToPos(sp.start, 'x'));
		const x1 = Math.min(u.over.clientWidth, u.valToPos(sp.end, 'x'));
		const last = marks[marks.length - 1];
		const m = spanMark(strip, last, sp, x0, x1);
		if (m !== last)
			marks.push(m);
	}
	for (const m of marks)
		putMark(strip, off, m);
	const rows = spans.length ? Math.max(...spans.map((x) => x.row)) : 0;
	strip.style.height = (17 * (rows + 1) + 1) + 'px';
}

/*
 * The flags' bands behind the lines of every pane; the marks above the
 * panes follow the first pane's X scale, which uPlot sets when it draws,
 * not when it is made.
 */
function drawFlags(u) {
	if (st.plots.length && u === st.plots[0].u) {
		drawFlagStrip();
		drawFlagList();
	}
	const ctx = u.ctx, top = u.bbox.top, h = u.bbox.height;
	ctx.save();
	ctx.fillStyle = 'rgba(229, 57, 53, 0.15)';
	for (const b of st.bands || []) {
		if (b.end <= st.view[0] || b.start >= st.view[1])
			continue;
		const x0 = u.valToPos(b.start, 'x', true);
		const x1 = u.valToPos(b.end, 'x', true);
		ctx.fillRect(x0, top, Math.max(2, x1 - x0), h);
	}
	ctx.restore();
}

/* ---- an epoch's samples ---- */

/*
 * A click on an hour or a day opens its epoch where the clicked vital
 * (all of them, overlapped) was highest.
 */
function openBucket(t, vital) {
	if (st.scale === 'epoch')
		return openEpoch(t, vital);
	return loadSeries('epoch').then((s) => {
		const end = t + bucketMs();
		let best = null, max = -Infinity;
		s.t.forEach((x, i) => {
			if (x < t || x >= end)
				return;
			let y = 0;
			for (const c of s.vitals)
				if (!vital || c.name === vital)
					y += c[st.field][i] || 0;
			if (y > max) {
				max = y;
				best = x;
			}
		});
		if (best === null)
			throw new Error('no epoch in ' + fmtTime(t));
		return openEpoch(best, vital);
	});
}

function epochId(start) {
	const s = st.series.epoch;
	if (s && s.id) {
		const i = s.t.indexOf(start);
		if (i >= 0)
			return Promise.resolve({ id: s.id[i], start });
	}
	return api('/api/epoch?at=' + start).then((j) => {
		const e = pick(j, 'epoch') || j;
		return { id: pick(e, 'id'), start: toMs(pick(e, 'start',
			'start_ms')) || start, end: toMs(pick(e, 'end',
			'end_ms')) };
	});
}

function openEpoch(start, vital) {
	status('loading the samples of ' + fmtTime(start));
	return epochId(start).then((e) =>
		api('/api/samples?epoch=' + e.id).then((j) => {
			st.epoch = e;
			st.samples = list(j, 'samples').map(normSample);
			st.shown = new Set(vital ? [vital] : st.vitals);
			drawSampleFilters();
			drawSamples();
			status('');
		}));
}

function drawSampleFilters() {
	const box = $('sample-vitals');
	box.textContent = '';
	for (const v of st.vitals) {
		const n = st.samples.filter((s) => s.vital === v).length;
		const l = document.createElement('label');
		const c = document.createElement('input');
		c.type = 'checkbox';
		c.value = v;
		c.checked = st.shown.has(v);
		c.addEventListener('change', () => {
			if (c.checked)
				st.shown.add(v);
			else
				st.shown.delete(v);
			drawSamples();
		});
		l.append(c, ' ' + v + ' (' + n + ')');
		box.appendChild(l);
	}
}

function sampleFilter() {
	const exec = $('f-exec').value.trim(), site = $('f-site').value.trim();
	const uid = $('f-uid').value.trim(), pid = $('f-pid').value.trim();
	const text = $('f-text').value.trim().toLowerCase();
	return (s) => st.shown.has(s.vital) &&
		(!exec || s.exec.includes(exec)) &&
		(!site || s.site.includes(site)) &&
		(!uid || String(s.uid) === uid) &&
		(!pid || String(s.pid) === pid) &&
		(!text || JSON.stringify(s).toLowerCase().includes(text));
}

function cell(tr, text, cls) {
	const td = document.createElement('td');
	td.textContent = text === null || text === undefined ? '' : text;
	if (cls)
		td.className = cls;
	tr.appendChild(td);
}

function drawSamples() {
	const sec = $('samples'), body = $('sample-table').tBodies[0];
	const rows = st.samples.filter(sampleFilter());
	sec.hidden = false;
	sec.dataset.epoch = st.epoch.start;
	$('samples-title').textContent = 'Samples of the epoch at ' +
		fmtTime(st.epoch.start);
	$('sample-count').textContent = rows.length + ' of ' +
		st.samples.length;
	body.textContent = '';
	for (const s of rows) {
		const tr = document.createElement('tr');
		cell(tr, s.time ? new Date(s.time).toISOString().slice(11, 23) :
			'');
		cell(tr, s.vital);
		cell(tr, s.exec);
		cell(tr, s.uid, 'num');
		cell(tr, s.pid, 'num');
		cell(tr, s.site);
		cell(tr, s.data);
		cell(tr, s.kstack.join('\n'), 'stack');
		cell(tr, s.ustack.join('\n'), 'stack');
		body.appendChild(tr);
	}
}

/* ---- the diff ---- */

function rangeText(r) {
	return fmtTime(r[0]) + ' \u2013 ' + fmtTime(r[1]);
}

function take(which) {
	st[which] = st.view.slice();
	$('range-' + which).textContent = rangeText(st[which]);
	$('run-diff').disabled = !(st.a && st.b);
}

function runDiff() {
	const path = '/api/diff?a=' + st.a[0] + '-' + st.a[1] + '&b=' +
		st.b[0] + '-' + st.b[1];
	status('diffing');
	return api(path).then((j) => {
		const body = $('diff-table').tBodies[0];
		body.textContent = '';
		for (const r of list(j, 'rows', 'diff')) {
			const tr = document.createElement('tr');
			const a = pick(r, 'a'), b = pick(r, 'b');
			cell(tr, pick(r, 'kind'));
			cell(tr, pick(r, 'vital'));
			cell(tr, pick(r, 'name'));
			cell(tr, fmtNum(a), 'num');
			cell(tr, fmtNum(b), 'num');
			cell(tr, (b >= a ? '+' : '') + fmtNum(b - a), 'num');
			body.appendChild(tr);
		}
		$('diff-table').hidden = false;
		status('');
	});
}

function fmtNum(x) {
	return typeof x === 'number' ? (Number.isInteger(x) ? String(x) :
		x.toFixed(2)) : '';
}

/* ---- wiring ---- */

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

function start() {
	const emb = window.STP_EMBED;
	controls();
	status('loading');
	return api('/api/meta').then((j) => {
		st.meta = normMeta(j);
		if (emb) {	/* the report's range, not the whole store's */
			st.meta.first = emb.first;
			st.meta.last = emb.last;
		}
		st.vitals = st.meta.vitals.map((v) => v.name);
		$('where').textContent = st.meta.host + ' \u2014 ' +
			fmtTime(st.meta.first) + ' to ' + fmtTime(st.meta.last) +
			(emb ? ' (report written ' + emb.written + ')' : '');
		return Promise.all([loadSeries('epoch'), loadFlags()]);
	}).then(() => {
		st.view = wholeView();
		drawPanes();
		document.body.dataset.ready = '1';
		status('');
	}).catch(fail);
}

/* For the browser test: the plots, to click where an epoch is drawn. */
window.stpPage = { state: st, setView, openEpoch };
start();
})();
