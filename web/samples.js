// SPDX-License-Identifier: GPL-2.0-or-later
/* An epoch's samples, listed on a click, with their filters. */
'use strict';

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

/*
 * /api/epoch: the epoch that starts at start, as {id, start, end}.  The
 * API's times are cut down to the millisecond, so an epoch's true start
 * can lie up to 1 ms after start, inside the previous epoch: ask for the
 * millisecond after (stp-vitals report embeds that key).
 */
function epochId(start) {
	return api('/api/epoch?at=' + (start + 1)).then((e) =>
		({ id: e.id, start: e.start, end: e.end }));
}

function openEpoch(start, vital) {
	setStatus('loading the samples of ' + fmtTime(start));
	return epochId(start).then((e) =>
		api('/api/samples?epoch=' + e.id).then((j) => {
			st.epoch = e;
			st.samples = list(j, 'samples').map(normSample);
			st.shown = new Set(vital ? [vital] : st.vitals);
			drawSampleFilters();
			drawSamples();
			setStatus('');
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
