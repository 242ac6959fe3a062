/* SPDX-License-Identifier: Apache-2.0 */
/* page.c - the one look of every HTML page rtconform writes (report.html,
 * compare.html, fleet.html, validation.html): one style sheet, one page
 * frame. See page.h. */
#include "reports/page.h"

/* No '<', '>' or '&' in here: it is written raw inside <style>, and the
 * document must stay well-formed XML. */
static const char page_css[] =
	":root{--pass:#1a7f37;--fail:#cf222e;--error:#b35900;--skip:#6e7781;--line:#d0d7de;"
	"--inconclusive:#8250df}\n"
	"body{font:14px/1.45 system-ui,'Segoe UI',Roboto,'DejaVu Sans',Arial,sans-serif;"
	"color:#1f2328;max-width:1120px;margin:0 auto;padding:16px 24px;background:#fff}\n"
	"h1{font-size:22px;margin:0 0 6px}\n"
	"h2{font-size:18px;margin:30px 0 8px;padding-bottom:4px;border-bottom:2px solid var(--line)}\n"
	"h3{font-size:15px;margin:18px 0 6px}\n"
	"table{border-collapse:collapse;margin:6px 0 12px;font-variant-numeric:tabular-nums}\n"
	"th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}\n"
	"th{background:#f6f8fa;font-weight:600}\n"
	"td.num{text-align:right;white-space:nowrap}\n"
	"td.nowrap{white-space:nowrap}\n"
	"td.note{color:#57606a;font-size:13px}\n"
	"table.facts th{white-space:nowrap;width:11em}\n"
	"table.env td{word-break:break-word}\n"
	"table.env td:first-child{white-space:nowrap;font-family:'DejaVu Sans Mono',monospace;font-size:12px}\n"
	"code,pre{font-family:'DejaVu Sans Mono',Consolas,monospace;font-size:12px}\n"
	"pre{background:#f6f8fa;border:1px solid var(--line);padding:8px 10px;"
	"white-space:pre-wrap;word-break:break-all}\n"
	".v{display:inline-block;min-width:3.6em;text-align:center;font-weight:700;font-size:12px;"
	"padding:1px 6px;border-radius:3px;color:#fff}\n"
	".v-pass{background:var(--pass)}.v-fail{background:var(--fail)}"
	".v-error{background:var(--error)}.v-skipped{background:var(--skip)}"
	".v-inconclusive{background:var(--inconclusive)}\n"
	".banner{padding:10px 14px;border-radius:6px;color:#fff;font-size:16px;font-weight:600;margin:10px 0}\n"
	".b-pass{background:var(--pass)}.b-fail{background:var(--fail)}.b-error{background:var(--error)}"
	".b-inconclusive{background:var(--inconclusive)}\n"
	".r-ok{background:var(--pass)}.r-note{background:var(--skip)}"
	".r-warn{background:var(--error)}.r-fail{background:var(--fail)}\n"
	".metric{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}\n"
	"figure{margin:0}\n"
	"figcaption{font-size:12px;color:#57606a;max-width:640px}\n"
	"table.stats{font-size:13px}\n"
	"table.counts{font-size:13px}\n"
	"svg.hist{width:640px;max-width:100%;height:auto;border:1px solid var(--line);background:#fff}\n"
	".cpus{display:flex;flex-wrap:wrap;gap:10px;margin:6px 0}\n"
	"svg.cpu{width:320px}\n"
	"svg .bar{fill:#4c78a8}\n"
	"svg .beyond{fill:#cf222e}\n"
	/* compare.html: both sides' histograms over each other */
	"svg .ov-base{fill:#6e7781;fill-opacity:.55}svg .ov-cand{fill:#0969da;fill-opacity:.45}\n"
	"svg .ov-worse{fill:#cf222e;fill-opacity:.45}svg .ov-better{fill:#1a7f37;fill-opacity:.45}\n"
	"svg .axis{stroke:#57606a;stroke-width:1}\n"
	"svg .grid{stroke:#eaeef2;stroke-width:1}\n"
	"svg .lim{stroke:#cf222e;stroke-width:1.6;stroke-dasharray:5 3}\n"
	"svg .lim-ok{stroke:#1a7f37}\n"
	"svg text{font-size:11px;fill:#57606a;font-family:'DejaVu Sans',Arial,sans-serif}\n"
	"svg text.lab{fill:#1f2328;font-weight:600}\n"
	"svg text.lab-ok{fill:#1a7f37}\n"
	"svg text.lab-no{fill:#cf222e}\n"
	/* the intervals over time (html_time.c) */
	"figure.time{margin:10px 0}\n"
	"svg.tplot{width:640px;max-width:100%;height:auto;border:1px solid var(--line);background:#fff}\n"
	"svg .tl{fill:none;stroke-width:1.4}\n"
	"svg .tl-max{stroke:#4c78a8}svg .tl-p99{stroke:#b35900;stroke-dasharray:4 2}\n"
	"svg .tp-max{fill:#4c78a8}svg .tp-p99{fill:#fff;stroke:#b35900;stroke-width:1.4}\n"
	"svg .tp-cpu{fill:currentColor}\n"
	"svg .tp-beyond{fill:#cf222e;stroke:#cf222e}\n"
	"svg .breach{fill:#cf222e;fill-opacity:.16}\n"
	"svg .traced{fill:#8250df;fill-opacity:.12;stroke:#8250df;stroke-width:2}\n"
	"svg text.tr-lab{fill:#8250df}\n"
	/* the "why" of an explained breach (html_why.c) */
	"svg.why{width:640px;max-width:100%;height:auto;border:1px solid var(--line)}\n"
	"table.why{font-size:13px}\n"
	".why-key{display:inline-block;width:10px;height:10px}\n"
	".why-irq{fill:#cf222e;background:#cf222e}.why-softirq{fill:#fb8f44;background:#fb8f44}"
	".why-timer{fill:#bf3989;background:#bf3989}.why-idle{fill:#d0d7de;background:#d0d7de}"
	".why-wakeup{fill:#0e7c86;background:#0e7c86}.why-probe{fill:#4c78a8;background:#4c78a8}"
	".why-unexplained{fill:#6e7781;background:#6e7781}.why-idle-exit{fill:#54aeff;background:#54aeff}.why-rest{fill:#eaeef2;background:#eaeef2}"
	".why-task-higher{fill:#8250df;background:#8250df}"
	".why-task-violation{fill:#9a6700;background:#9a6700}"
	".why-task-not-runnable{fill:#1a7f37;background:#1a7f37}"
	".why-task-unknown{fill:#57606a;background:#57606a}\n"
	"svg .tc0{stroke:#4c78a8;color:#4c78a8}svg .tc1{stroke:#b35900;color:#b35900}"
	"svg .tc2{stroke:#1a7f37;color:#1a7f37}svg .tc3{stroke:#8250df;color:#8250df}"
	"svg .tc4{stroke:#0e7c86;color:#0e7c86}svg .tc5{stroke:#bf3989;color:#bf3989}"
	"svg .tc6{stroke:#57606a;color:#57606a}svg .tc7{stroke:#9a6700;color:#9a6700}\n"
	"svg .td1{stroke-dasharray:6 3}svg .td2{stroke-dasharray:2 2}\n"
	"a{color:#0969da;text-decoration:none}\n"
	"footer{margin-top:30px;color:#57606a;font-size:12px}\n"
	/* compare.html: a figure's row by its outcome */
	"tr.worse td{background:#ffebe9}tr.better td{background:#dafbe1}"
	"tr.inconclusive td{background:#fff8c5}\n"
	".b-undecided{background:#9a6700}\n"
	/* fleet.html: a host's cell by its verdict, as the verdict badges */
	"td.pass,td.fail,td.error,td.skipped,td.absent,td.inconclusive{white-space:nowrap;"
	"font-variant-numeric:tabular-nums}\n"
	"td.inconclusive{color:var(--inconclusive);font-weight:700}"
	"td.pass{color:var(--pass)}td.fail{color:var(--fail);font-weight:700}"
	"td.error{color:var(--error);font-weight:700}td.skipped,td.absent{color:var(--skip)}\n"
	".note{color:#57606a}\n"
	/* fleet.html: the limit that decided a cell, and a requirement's row
	 * for each of its limits, under it */
	"td .decided{display:block;font-size:12px;font-weight:400;color:#57606a}\n"
	"tr.limit th,tr.limit td{font-size:12px;padding-top:1px;padding-bottom:1px}\n"
	"tr.limit th{background:#fff}tr.limit td:first-of-type{padding-left:22px;color:#57606a}\n"
	/* Printed: the verdict table starts on page 1 and may run on (rows
	 * stay whole); each requirement starts a page; a histogram stays on
	 * one page with its statistics beside it; small tables stay whole;
	 * colours print as on screen. */
	"@media print{\n"
	"@page{size:A4;margin:12mm}\n"
	"body{max-width:none;padding:0;font-size:9pt;line-height:1.3}\n"
	"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}\n"
	"h1{font-size:14pt;margin:0 0 2mm}\n"
	".banner{font-size:11pt;padding:2mm 3mm;margin:2mm 0}\n"
	"h2{font-size:12pt;margin:4mm 0 2mm;break-after:avoid}\n"
	"h3{font-size:10pt;margin:3mm 0 1mm;break-after:avoid}\n"
	"th,td{padding:1px 4px}\n"
	"td.note,figcaption,code,pre,table.stats,table.counts{font-size:8pt}\n"
	"table,figure,tr,pre,svg{break-inside:avoid}\n"
	"table.summary,table.env{break-inside:auto}\n"
	".req{break-before:page}\n"
	".metric{flex-wrap:nowrap;gap:4mm;break-inside:avoid}\n"
	/* the histogram keeps most of the width: a wide statistics table
	 * (long row names, intervals, cycles of a large max) wraps its cells
	 * instead of squeezing the histogram to a sliver */
	".metric figure{flex:1 1 auto;min-width:58%}\n"
	".metric table.stats{flex:0 1 auto;min-width:0;margin:0}\n"
	"table.stats td:first-child{white-space:nowrap}\n"
	"table.stats td.observed{white-space:normal}\n"
	"svg.hist{width:100%}\n"
	"svg.tplot{width:90%}\n"
	/* the histogram prints at about 60 % of its size: larger text keeps it legible */
	"svg.hist:not(.cpu) text{font-size:15px}\n"
	".cpus{gap:2mm}\n"
	"svg.cpu{width:calc(50% - 1mm);box-sizing:border-box}\n"
	"a{color:inherit}\n"
	"}\n";

/* The doctype, <html lang="en">, a head with UTF-8, a viewport for phones,
 * the title and the style sheet (constant markup, written as it is). */
void page_begin(struct xw *x, const char *title, const char *heading)
{
	xw_raw(x, "<!DOCTYPE html>\n");
	xw_start(x, "html");
	xw_attr(x, "lang", "en");
	xw_raw(x, "\n");
	xw_start(x, "head");
	xw_start(x, "meta");
	xw_attr(x, "charset", "utf-8");
	xw_end(x);
	xw_start(x, "meta");
	xw_attr(x, "name", "viewport");
	xw_attr(x, "content", "width=device-width, initial-scale=1");
	xw_end(x);
	xw_elem(x, "title", title);
	xw_start(x, "style");
	xw_raw(x, "\n");
	xw_raw(x, page_css);
	xw_full_end(x);
	xw_full_end(x); /* head */
	xw_raw(x, "\n");
	xw_start(x, "body");
	xw_raw(x, "\n");
	xw_elem(x, "h1", heading);
	xw_raw(x, "\n");
}

void page_end(struct xw *x, const char *version, const char *commit, const char *more)
{
	xw_start(x, "footer");
	xw_textf(x, "rtconform %s (commit %s)%s", version ? version : "not recorded",
		 commit ? commit : "not recorded", more ? more : "");
	xw_full_end(x);
	xw_raw(x, "\n");
	xw_full_end(x); /* body */
	xw_raw(x, "\n");
	xw_full_end(x); /* html */
	xw_raw(x, "\n");
}
