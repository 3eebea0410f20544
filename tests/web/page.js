// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page in a real browser: Debian's chromium, headless, driven by
 * playwright-core.  tests/web/run.sh runs it once against stp-vitals
 * serve and once on report.html from file://, and says what the store
 * holds:
 *
 *   node tests/web/page.js [--one-epoch] URL SHOT.png HOST \
 *        SPIN_EPOCH_MS SPIN_TEXT [FLAG_RULE FLAG_EXEC FLAG_MS]
 *
 * Checks, each printed as "ok NAME" or "FAIL NAME: why":
 *   - the page loads with no error in its console or status line;
 *   - its header begins with HOST (the store's host name, or the text
 *     that says there is none);
 *   - every vital sign of /api/meta has a pane; a pane with values draws
 *     them in its canvas (pixels of the series' colour): a line through
 *     every two neighbouring values, or with --one-epoch (the range
 *     holds one epoch) a point at its one value; a pane with none, as
 *     an unavailable vital sign's, says so;
 *   - a click where the cpuu pane draws the epoch SPIN_EPOCH_MS lists
 *     that epoch's cpuu samples, one of them naming SPIN_TEXT;
 *   - a flag of rule FLAG_RULE naming FLAG_EXEC is marked on the timeline
 *     above the epoch holding FLAG_MS, and listed;
 *   - but for --one-epoch, zoom, pan, overlap, the normalized Y, the
 *     hour scale (a click on an hour lists one of its epochs), and the
 *     diff (served; a report says the diff needs the server).
 * A screenshot of the whole page goes to SHOT.png.  The exit status is
 * the number of failures.
 */
'use strict';
const path = require('path');
const { chromium } = require(path.resolve(__dirname,
	'../../build/npm/node_modules/playwright-core'));

const args = process.argv.slice(2);
const oneEpoch = args[0] === '--one-epoch';
const [url, shot, host, spinMs, spinText, flagRule, flagExec, flagMs] =
	oneEpoch ? args.slice(1) : args;
let failed = 0;

function ok(name) {
	console.log('ok ' + name);
}

function bad(name, why) {
	console.log('FAIL ' + name + ': ' + why);
	failed++;
}

/*
 * Each pane as drawn: its vital, its values, the values whose point is
 * drawn (pixels of the series' colour around it), the neighbouring pairs
 * of values and the share of the canvas columns between them that the
 * colour reaches (the line), and its note when it has no value.
 */
function panes() {
	const st = window.stpPage.state;
	return st.plots.map((p) => {
		const u = p.u, c = u.ctx.canvas, w = c.width;
		const d = u.ctx.getImageData(0, 0, w, c.height).data;
		const want = u.series[1].stroke();
		const rgb = [1, 3, 5].map((i) => parseInt(want.substr(i, 2), 16));
		const is = (x, y) => {
			const i = (y * w + x) * 4;
			return x >= 0 && x < w && y >= 0 && y < c.height &&
				d[i + 3] > 100 && Math.abs(d[i] - rgb[0]) < 8 &&
				Math.abs(d[i + 1] - rgb[1]) < 8 &&
				Math.abs(d[i + 2] - rgb[2]) < 8;
		};
		const top = Math.round(u.bbox.top);
		const bottom = top + Math.round(u.bbox.height);
		const inColumn = (x) => {
			for (let y = top; y <= bottom; y++)
				if (is(x, y))
					return true;
			return false;
		};
		const xs = u.data[0], ys = u.data[1];
		const pos = (i) => [Math.round(u.valToPos(xs[i], 'x', true)),
			Math.round(u.valToPos(ys[i], 'y', true))];
		let values = 0, points = 0, pairs = 0, span = 0, reached = 0;
		for (let i = 0; i < xs.length; i++) {
			if (ys[i] === null || ys[i] === undefined)
				continue;
			values++;
			const [x, y] = pos(i);
			let n = 0;
			for (let dx = -4; dx <= 4; dx++)
				for (let dy = -4; dy <= 4; dy++)
					n += is(x + dx, y + dy) ? 1 : 0;
			points += n >= 5 ? 1 : 0;
			if (i + 1 < xs.length && ys[i + 1] !== null &&
			    ys[i + 1] !== undefined) {
				pairs++;
				for (let k = x + 1; k < pos(i + 1)[0]; k++) {
					span++;
					reached += inColumn(k) ? 1 : 0;
				}
			}
		}
		const note = p.u.root.parentNode.querySelector('.nodata');
		return { vital: p.vital, values, points, pairs, span, reached,
			note: note && note.offsetParent ? note.textContent : '',
			epochs: xs.length };
	});
}

/* What is wrong with pane p as drawn, or '' (one: a range of one epoch). */
function paneWrong(p, unavailable, one) {
	if (unavailable && p.values)
		return 'unavailable, but ' + p.values + ' values drawn';
	if (!p.values)
		return p.note === 'no data in this range' ? '' :
			'no value, and no note that says so';
	if (one)
		return p.points === p.values ? '' : p.points + ' of its ' +
			p.values + ' values drawn';
	if (!p.pairs || p.reached < 0.8 * p.span)
		return 'no line: ' + p.pairs + ' pairs of values, the colour ' +
			'in ' + p.reached + ' of ' + p.span + ' columns between';
	return '';
}

async function checkPanes(page) {
	const meta = await page.evaluate(() =>
		window.stpPage.state.meta.vitals);
	const want = meta.map((v) => v.name);
	const got = await page.evaluate(panes);
	const names = got.map((p) => p.vital).join(' ');
	if (names !== want.join(' '))
		return bad('every vital has a pane', 'panes "' + names +
			'", vitals "' + want.join(' ') + '"');
	if (oneEpoch && got[0].epochs !== 1)
		return bad('the page draws one epoch', got[0].epochs +
			' epochs in its series');
	const wrong = got.map((p, i) => [p.vital, paneWrong(p,
		!meta[i].available, oneEpoch)]).filter((x) => x[1]);
	const what = oneEpoch ? 'its point' : 'its line';
	if (wrong.length)
		return bad('every pane draws ' + what, wrong.map((x) =>
			x[0] + ': ' + x[1]).join('; '));
	const drawn = got.filter((p) => p.values).length;
	/* a page that draws nothing would pass the check above: over the
	 * whole store most vitals have values; in the spinner's epoch alone,
	 * only those that had events then (cpuu surely: the spinner ran) */
	const cpuu = got.find((p) => p.vital === 'cpuu');
	if (oneEpoch ? !cpuu || !cpuu.values : drawn < got.length / 2)
		return bad('every pane draws ' + what, oneEpoch ?
			'the cpuu pane has no value in the spinner\'s epoch' :
			'only ' + drawn + ' of ' + got.length + ' panes have values');
	const least = Math.min(...got.filter((p) => p.span).map((p) =>
		Math.floor(100 * p.reached / p.span)));
	ok('every pane draws ' + what + ' or says it has none (' + drawn +
		' of ' + got.length + ' panes drawn, ' + got[0].epochs +
		' epoch' + (got[0].epochs > 1 ? 's' : '') + (oneEpoch ? '' :
		', the lines in ' + least + '% or more of the columns') + ')');
}

/* The header names the host first. */
async function checkHost(page) {
	const where = await page.textContent('#where');
	if (!where.startsWith(host + ' \u2014 '))
		return bad('the header names the host', '"' + where +
			'", not "' + host + ' \u2014 ..."');
	ok('the header names the host: ' + host);
}

/* The page coordinates where the cpuu pane draws time ms. */
function where(ms) {
	const p = window.stpPage.state.plots.find((x) => x.vital === 'cpuu');
	const r = p.u.over.getBoundingClientRect();
	p.u.over.scrollIntoView({ block: 'center' });
	const r2 = p.u.over.getBoundingClientRect();
	return { x: r2.left + p.u.valToPos(ms, 'x'), y: r2.top + r.height / 2 };
}

async function checkClick(page) {
	const ms = Number(spinMs);
	const at = await page.evaluate(where, ms);
	const t0 = Date.now();
	await page.mouse.click(at.x, at.y);
	try {
		await page.waitForSelector('#samples[data-epoch="' + ms + '"]',
			{ timeout: 10000 });
	} catch (e) {
		const s = await page.textContent('#status');
		return bad('a click lists the epoch\'s samples', 'no samples of ' +
			'the epoch at ' + ms + ' after a click at x=' +
			at.x.toFixed(0) + (s ? ' (status: ' + s + ')' : ''));
	}
	console.log('figures a click to its samples listed: ' +
		(Date.now() - t0) + ' ms');
	const rows = await page.$$eval('#sample-table tbody tr', (trs) =>
		trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
	const vitals = [...new Set(rows.map((r) => r[1]))].join(' ');
	if (!rows.length || vitals !== 'cpuu')
		return bad('a click on cpuu lists cpuu samples', rows.length +
			' rows, vitals "' + vitals + '"');
	const named = rows.filter((r) => r.join(' ').includes(spinText));
	if (!named.length)
		return bad('the samples name the spinner', 'none of ' +
			rows.length + ' rows has "' + spinText + '"');
	ok('a click on the spinner\'s epoch lists ' + rows.length +
		' cpuu samples, ' + named.length + ' naming ' + spinText);
}

async function checkFlag(page) {
	await page.waitForSelector('body[data-flags="1"]', { timeout: 20000 });
	const marks = await page.$$eval('#flagstrip .flag', (ms) => ms.map(
		(m) => ({ rule: m.dataset.rule, exec: m.dataset.exec,
			start: Number(m.dataset.start), end: Number(m.dataset.end),
			left: m.getBoundingClientRect().left,
			right: m.getBoundingClientRect().right })));
	const m = marks.find((x) => x.rule === flagRule &&
		x.exec.split(' ').some((e) => e.includes(flagExec)));
	if (!m)
		return bad('the flag is marked', 'no rule ' + flagRule + ' mark' +
			' naming ' + flagExec + ' among ' + JSON.stringify(marks));
	const epoch = await page.evaluate((ms) => {
		const s = window.stpPage.state.series.epoch;
		return s.t.filter((t) => t <= ms).pop();
	}, Number(flagMs));
	const at = await page.evaluate(where, epoch);
	if (epoch < m.start || epoch >= m.end || at.x < m.left - 2 ||
	    at.x > m.right + 2)
		return bad('the flag is where the workload provoked it', 'mark ' +
			'over [' + m.start + ', ' + m.end + ') at x=' +
			m.left.toFixed(0) + '..' + m.right.toFixed(0) + ', the ' +
			'epoch of ' + flagMs + ' starts at ' + epoch + ' (x=' +
			at.x.toFixed(0) + ')');
	const listed = await page.$$eval('#flaglist li[data-rule="' + flagRule +
		'"]', (li) => li.map((x) => x.textContent));
	if (!listed.some((t) => t.includes(flagExec)))
		return bad('the flag is listed', JSON.stringify(listed));
	ok('rule ' + flagRule + '\'s flag on ' + flagExec + ' is marked over ' +
		'its epoch and listed');
}

/* A click on an hour lists the samples of one of its epochs. */
async function checkHourClick(page) {
	const hour = await page.evaluate(() =>
		window.stpPage.state.series.hour.t[0]);
	await page.evaluate(() => {
		document.getElementById('samples').dataset.epoch = '';
	});
	/* the view's middle: the only bucket is the nearest point there */
	const mid = await page.evaluate(() => {
		const v = window.stpPage.state.view;
		return (v[0] + v[1]) / 2;
	});
	const at = await page.evaluate(where, mid);
	await page.mouse.click(at.x, at.y);
	await page.waitForFunction(() =>
		document.getElementById('samples').dataset.epoch);
	const epoch = Number(await page.getAttribute('#samples',
		'data-epoch'));
	if (epoch < hour || epoch >= hour + 3600e3)
		return bad('a click on an hour', 'listed the epoch at ' + epoch +
			', not one of the hour at ' + hour);
	ok('a click on an hour lists the samples of one of its epochs');
}

/* A shift-drag across the cpuu pane from fraction f0 to f1 of its width. */
async function shiftDrag(page, f0, f1) {
	const box = await page.evaluate(() => {
		const p = window.stpPage.state.plots.find((x) =>
			x.vital === 'cpuu');
		p.u.over.scrollIntoView({ block: 'center' });
		const r = p.u.over.getBoundingClientRect();
		return { x: r.left, y: r.top, w: r.width, h: r.height };
	});
	const y = box.y + box.h / 2;
	await page.keyboard.down('Shift');
	await page.mouse.move(box.x + box.w * f0, y);
	await page.mouse.down();
	await page.mouse.move(box.x + box.w * f1, y, { steps: 5 });
	await page.mouse.up();
	await page.keyboard.up('Shift');
}

/* The controls: each changes what the panes show, with no error. */
async function checkControls(page, served) {
	const st = () => page.evaluate(() => {
		const s = window.stpPage.state;
		return { panes: s.plots.length, view: s.view,
			lines: s.plots[0].u.series.length - 1,
			ymax: s.plots[0].u.scales.y.max, points:
			s.plots[0].u.data[0].length, vitals: s.vitals.length };
	});
	const before = await st();
	await page.click('#zoom-in');
	const zoomed = await st();
	await page.click('#pan-left');
	const panned = await st();
	const w0 = before.view[1] - before.view[0];
	const w1 = zoomed.view[1] - zoomed.view[0];
	if (Math.abs(w1 - w0 / 2) > 1 || panned.view[0] >= zoomed.view[0])
		bad('zoom and pan', JSON.stringify([before.view, zoomed.view,
			panned.view]));
	else
		ok('zoom halves the view, pan moves it');
	await page.click('#overlap');
	await page.click('#normalize');
	const over = await st();
	if (over.panes !== 1 || over.lines !== over.vitals || over.ymax !== 1)
		bad('overlap and normalize', JSON.stringify(over));
	else
		ok('overlapped: one pane of ' + over.lines + ' lines, Y to 1');
	await page.click('#overlap');
	await page.click('#normalize');
	await page.selectOption('#scale', 'hour');
	await page.waitForFunction(() =>
		window.stpPage.state.plots[0].u.data[0].length === 1);
	ok('the hour scale draws one bucket');
	await checkHourClick(page);
	await page.selectOption('#scale', 'epoch');
	await page.click('#zoom-all');
	await shiftDrag(page, 0.05, 0.45);
	await shiftDrag(page, 0.55, 0.95);
	const ab = await page.evaluate(() => [window.stpPage.state.a,
		window.stpPage.state.b]);
	const v = await page.evaluate(() => window.stpPage.state.view);
	if (!ab[0] || !ab[1] || ab[0][1] > ab[1][0] || ab[0][0] < v[0] ||
	    ab[1][1] > v[1])
		bad('shift-drags take ranges A and B', JSON.stringify(ab));
	else
		ok('shift-drags take ranges A and B');
	await page.click('#run-diff');
	if (served) {
		await page.waitForSelector('#diff-table:not([hidden]) tbody tr',
			{ timeout: 10000 });
		ok('the diff of two selections lists rows');
	} else {
		await page.waitForFunction(() => /not in this report/.test(
			document.getElementById('status').textContent));
		ok('the diff in a report says it needs the server');
		await page.evaluate(() => {
			document.getElementById('status').textContent = '';
		});
	}
}

async function main() {
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		args: ['--no-sandbox'],
	});
	const page = await browser.newPage({ viewport: { width: 1280,
		height: 900 } });
	const errors = [];
	page.on('pageerror', (e) => errors.push(String(e)));
	page.on('console', (m) => m.type() === 'error' &&
		errors.push(m.text()));
	try {
		const t0 = Date.now();
		await page.goto(url);
		await page.waitForSelector('body[data-ready="1"]',
			{ timeout: 20000 });
		ok('the page loads');
		console.log('figures first view with data: ' +
			(Date.now() - t0) + ' ms');
		await checkHost(page);
		await checkPanes(page);
		await checkClick(page);
		if (flagRule)
			await checkFlag(page);
		if (!oneEpoch)
			await checkControls(page, url.startsWith('http'));
	} catch (e) {
		bad('the page', String(e.message || e).split('\n')[0] +
			' (status: ' + await page.textContent('#status')
				.catch(() => '?') + ')');
	}
	if (errors.length)
		bad('no errors in the console', errors.join('; '));
	await page.screenshot({ path: shot, fullPage: true });
	await browser.close();
	process.exit(failed);
}

main().catch((e) => {
	console.log('FAIL the browser: ' + e.message.split('\n')[0]);
	process.exit(1);
});
