/* The frame of every hardbench page (html_page.h). */
#include "analysis/html_page.h"

#include <openssl/evp.h>
#include <string.h>

#include "analysis/html.h"

/* Greys and one blue: readable in greyscale, contrast above 4.5:1 on white. */
static const char style[] =
	"body{font:15px/1.45 system-ui,sans-serif;color:#111;background:#fff;margin:0 auto;"
	"max-width:1500px;padding:0 1.2em 3em}\n"
	"h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:2px solid #333;padding-bottom:.15em;"
	"margin-top:1.8em}\n"
	"table{border-collapse:collapse;margin:.5em 0 1em;font-variant-numeric:tabular-nums}\n"
	"th,td{border:1px solid #999;padding:.2em .5em;text-align:left;vertical-align:top}\n"
	"th{background:#e8e8e8}td.num,th.num{text-align:right;white-space:nowrap}\n"
	"tr.base td{background:#f4f4f4}tr.noise td.verdict{color:#444}\n"
	"tr.worse td.verdict,tr.better td.verdict{font-weight:bold}\n"
	".tables{overflow-x:auto}td.verdict,td.est,td.variant,td.metric{white-space:nowrap}\n"
	".charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(460px,1fr));gap:1em}\n"
	"figure{margin:0}figure svg{width:100%;height:auto;display:block}caption{text-align:left;"
	"color:#444;padding-bottom:.3em}\n"
	"figcaption,.note{color:#444;font-size:.9em}pre{overflow-x:auto;background:#f4f4f4;"
	"padding:.6em;font-size:.85em}\n"
	"dl.cond{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}dl.cond dt{font-weight:bold}"
	"dl.cond dd{margin:0}\ncode{font-size:.9em;overflow-wrap:anywhere}\n"
	"th[aria-sort=ascending]::after{content:' \\2191'}th[aria-sort=descending]::after{content:' \\2193'}\n"
	"#filter input{font:inherit;padding:.2em .4em;margin:.4em 0}#js-errors{color:#a00}\n"
	"details{margin:.3em 0}summary{cursor:pointer}\n";

/* Sorting by a column (numbers by their data-v value), a metric filter, and errors shown
 * in the page (the browser test reads them). Without it, the page is the same minus the
 * filter box. */
static const char script[] =
	"(function(){\n"
	"var errs=document.getElementById('js-errors');\n"
	"function report(m){errs.appendChild(document.createElement('li')).textContent=m;}\n"
	"window.addEventListener('error',function(e){report('error: '+e.message);});\n"
	"document.addEventListener('securitypolicyviolation',function(e){report('policy: '+e.violatedDirective);});\n"
	"function key(td){var v=td.getAttribute('data-v');return v!==null?parseFloat(v):td.textContent.trim().toLowerCase();}\n"
	"function cmp(x,y){return typeof x==='number'&&typeof y==='number'?x-y:String(x).localeCompare(String(y));}\n"
	"document.querySelectorAll('table.sortable').forEach(function(t){\n"
	" var heads=t.tHead.rows[0].cells;\n"
	" Array.prototype.forEach.call(heads,function(th,i){\n"
	"  th.tabIndex=0;th.title='sort by this column';\n"
	"  function sort(){var tb=t.tBodies[0];if(!tb)return;var asc=th.getAttribute('aria-sort')!=='ascending';\n"
	"   Array.prototype.forEach.call(heads,function(h){h.removeAttribute('aria-sort');});\n"
	"   th.setAttribute('aria-sort',asc?'ascending':'descending');\n"
	"   Array.prototype.slice.call(tb.rows).sort(function(a,b){var c=cmp(key(a.cells[i]),key(b.cells[i]));return asc?c:-c;})\n"
	"    .forEach(function(r){tb.appendChild(r);});}\n"
	"  th.addEventListener('click',sort);th.addEventListener('keydown',function(e){if(e.key==='Enter')sort();});\n"
	" });\n"
	"});\n"
	"var box=document.getElementById('filter');\n"
	"if(document.querySelector('[data-metric]')){\n"
	"var inp=document.createElement('input');inp.type='search';inp.placeholder='filter metrics (e.g. time)';\n"
	"inp.setAttribute('aria-label','filter metrics');box.appendChild(inp);box.hidden=false;\n"
	"inp.addEventListener('input',function(){var q=inp.value.trim().toLowerCase();\n"
	" document.querySelectorAll('[data-metric]').forEach(function(el){\n"
	"  el.hidden=q!==''&&el.getAttribute('data-metric').toLowerCase().indexOf(q)<0;});});}\n"
	"document.documentElement.setAttribute('data-js','ran');\n"
	"})();\n";

/* 'sha256-<base64>' of the script, for the policy. */
static void script_hash(char out[64])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;

	EVP_Digest(script, strlen(script), md, &len, EVP_sha256(), NULL);
	EVP_EncodeBlock((unsigned char *)out, md, (int)len);
}

void html_page_head(FILE *out, const char *title)
{
	char hash[64];

	script_hash(hash);
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		"style-src 'unsafe-inline'; img-src data:; script-src 'sha256-%s'\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<meta name=\"generator\" content=\"hardbench report --format html\">\n<title>", hash);
	html_text(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
	html_text(out, title);
	fputs("</h1>\n<ul id=\"js-errors\"></ul>\n<div id=\"filter\" hidden></div>\n", out);
}

void html_page_foot(FILE *out)
{
	fprintf(out, "<script>%s</script>\n</body>\n</html>\n", script);
}
