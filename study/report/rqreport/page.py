"""index.html: the summary table and the figures, plain HTML and CSS.

No script library and nothing fetched from the network: the page opens
from disk. One small inline script marks each image `data-state="loaded"`
or `"broken"` once the page has loaded and writes the counts into
#image-check, so a headless browser's DOM dump tells whether every figure
showed (t/study/report_browser.sh).
"""
import os
from html import escape

from . import prepare

STYLE = """
body { font-family: "DejaVu Sans", sans-serif; margin: 2em; color: #222; max-width: 1300px; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
div.table { overflow-x: auto; } table.summary { border-collapse: collapse; font-size: 0.85em; }
table.summary th, table.summary td { border: 1px solid #bbb; padding: 0.25em 0.5em; text-align: right; }
table.summary th { background: #eee; } table.summary td.text { text-align: left; }
figure { margin: 1.5em 0; } figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.85em; color: #555; }
p.note { background: #fff7d6; border-left: 4px solid #e0b000; padding: 0.4em 0.8em; }
"""

CHECK_SCRIPT = """
window.addEventListener("load", function () {
  var images = document.querySelectorAll("img"), loaded = 0, broken = 0;
  for (var i = 0; i < images.length; i++) {
    var ok = images[i].complete && images[i].naturalWidth > 0;
    images[i].setAttribute("data-state", ok ? "loaded" : "broken");
    if (ok) { loaded++; } else { broken++; }
  }
  document.getElementById("image-check").textContent =
    "images: " + images.length + " loaded: " + loaded + " broken: " + broken;
});
"""

TEXT_COLUMNS = ("label", *prepare.DESCRIPTION_COLUMNS)
PATH_COLUMNS = ("trace", "machine")  # shown by file name, the path on hover


def _cell(column, value):
    if column in PATH_COLUMNS and os.path.basename(value) != value:
        return f'<td class="text" title="{escape(value)}">{escape(os.path.basename(value))}</td>'
    if column in TEXT_COLUMNS:
        return f'<td class="text">{escape(value)}</td>'
    return f"<td>{escape(value)}</td>"


def summary_table(rows):
    columns = [(c, c.replace("_", " ")) for c in TEXT_COLUMNS if any(r.get(c) for r in rows)]
    columns += [(name, heading) for name, heading, _, _ in prepare.SUMMARY_COLUMNS]
    head = "".join(f"<th>{escape(h)}</th>" for _, h in columns)
    body = []
    for row in rows:
        cells = "".join(_cell(c, row[c]) for c, _ in columns)
        body.append(f'<tr class="run">{cells}</tr>')
    return (f'<div class="table"><table class="summary" id="summary"><thead><tr>{head}</tr></thead>\n<tbody>\n'
            + "\n".join(body) + "\n</tbody></table></div>")


def figure_html(figure):
    stem = escape(figure.stem)
    return (f'<figure id="{stem}"><img src="{stem}.png" alt="{escape(figure.title)}">'
            f'<figcaption>{escape(figure.title)}: {escape(figure.caption)} '
            f'(<a href="{stem}.svg">SVG</a>)</figcaption></figure>')


def write_index(path, title, rows, sections):
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             f"<title>{escape(title)}</title><style>{STYLE}</style>"
             f"<script>{CHECK_SCRIPT}</script></head><body>",
             f"<h1>{escape(title)}</h1>",
             '<p id="image-check">images: not checked</p>',
             "<h2>Summary</h2>", summary_table(rows),
             '<p><a href="summary.csv">summary.csv</a></p>']
    for section in sections:
        if not section.figures and not section.notes:
            continue
        parts.append(f"<h2>{escape(section.title)}</h2>")
        parts.extend(f'<p class="note">{escape(note)}</p>' for note in section.notes)
        parts.extend(figure_html(f) for f in section.figures)
    parts.append("</body></html>\n")
    path.write_text("\n".join(parts), encoding="utf-8")
