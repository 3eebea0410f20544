// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A store can hold tens of thousands of flags (a rule that fires in
 * every epoch), so they are drawn as spans: per rule, the union of its
 * flags' epochs, with the programs they name; the bands behind the lines
 * are the union over every rule.  The list shows the flags in the view,
 * at most LIST_MAX of them.
 */
'use strict';

const LIST_MAX = 100;

function loadFlags() {
	const path = window.STP_EMBED ? '/api/flags' : '/api/flags?from=' +
		st.meta.first + '&to=' + st.meta.last;
	return api(path).then((j) => {
		const no = list(j, 'not_evaluated').map((f) =>
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
	if (!st.plots.length || !st.view)
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
 * The marks above the panes follow the first pane's X scale, which uPlot
 * sets when it draws, not when it is made.
 */
function drawFlags(u) {
	if (st.plots.length && u === st.plots[0].u) {
		drawFlagStrip();
		drawFlagList();
	}
}

/*
 * The flags' bands behind the lines and points of every pane (drawn
 * once the canvas is cleared): over them, they would tint the values.
 */
function drawBands(u) {
	const ctx = u.ctx, { left, top, width, height } = u.bbox;
	ctx.save();
	ctx.beginPath();
	ctx.rect(left, top, width, height);
	ctx.clip();
	ctx.fillStyle = 'rgba(229, 57, 53, 0.15)';
	for (const b of st.bands || []) {
		if (b.end <= st.view[0] || b.start >= st.view[1])
			continue;
		const x0 = u.valToPos(b.start, 'x', true);
		const x1 = u.valToPos(b.end, 'x', true);
		ctx.fillRect(x0, top, Math.max(2, x1 - x0), height);
	}
	ctx.restore();
}
