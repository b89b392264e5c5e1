#include "resource/allocation_dot.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>

#include "utilities/dot_text.h"

namespace rq {

namespace {

// A vertex lists at most this many holders under its name; the rest are
// counted ("+5 more"), so that a vertex shared by hundreds of jobs (a
// memory pool) keeps a readable box.
constexpr size_t kHoldersShown = 4;
// Stripes of one fill: Graphviz draws them all, but past a few they are
// too thin to tell apart; the label still names every holder shown.
constexpr size_t kStripesDrawn = 6;
// Jobs on one row of the legend.
constexpr size_t kLegendRow = 8;

// A DOT quoted string (utilities/dot_text.h).
std::string quoted(std::string_view text) { return "\"" + dot_escaped(text) + "\""; }

std::string job_word(int64_t jobid, bool reserved) {
    return "job " + std::to_string(jobid) + (reserved ? " (reserved)" : "");
}

// The label: the vertex name, then one line per holder (allocated first).
std::string label_of(std::string_view name, const VertexHolders& h) {
    std::string text(name);
    size_t shown = 0, total = h.allocated.size() + h.reserved.size();
    for (int pass = 0; pass < 2; ++pass)
        for (int64_t job : pass == 0 ? h.allocated : h.reserved) {
            if (shown == kHoldersShown) break;
            text += "\n" + job_word(job, pass == 1);
            ++shown;
        }
    if (total > shown) text += "\n+" + std::to_string(total - shown) + " more";
    return text;
}

// The SVG classes of a held vertex ("job3 job4"): a style sheet or a
// script can pick one job's vertices out of the rendered picture.
std::string classes_of(const VertexHolders& h) {
    std::set<int64_t> jobs(h.allocated.begin(), h.allocated.end());
    jobs.insert(h.reserved.begin(), h.reserved.end());
    std::string out;
    for (int64_t job : jobs) out += (out.empty() ? "job" : " job") + std::to_string(job);
    return out;
}

// The style attributes of a held vertex: filled in its allocated jobs'
// colours (striped when several), dashed and outlined in the first
// reserving job's colour when some job reserved it.
std::string style_of(const VertexHolders& h) {
    std::string style, fill;
    if (h.allocated.size() == 1) {
        style = "filled";
        fill = job_colour(h.allocated.front());
    } else if (h.allocated.size() > 1) {
        style = "striped";
        for (size_t i = 0; i < h.allocated.size() && i < kStripesDrawn; ++i)
            fill += (i == 0 ? "" : ":") + job_colour(h.allocated[i]);
    }
    std::string out;
    if (!h.reserved.empty()) {
        style += style.empty() ? "dashed" : ",dashed";
        out += ", color=" + quoted(job_colour(h.reserved.front())) + ", penwidth=3";
    }
    if (!fill.empty()) out = ", fillcolor=" + quoted(fill) + out;
    return ", style=" + quoted(style) + out;
}

// Which vertices to draw: every live one, or only the held ones and their
// ancestors (through any live in-edge).
std::vector<bool> drawn_vertices(const ResourceGraph& g, const AllocationMap& holders, bool held_only) {
    std::vector<bool> drawn(g.num_vertices(), !held_only);
    for (VertexId v = 0; v < g.num_vertices(); ++v)
        if (g.is_removed(v)) drawn[v] = false;
    if (!held_only) return drawn;
    std::vector<VertexId> todo;
    for (const auto& [v, h] : holders)
        if (v < g.num_vertices() && !g.is_removed(v)) todo.push_back(v);
    while (!todo.empty()) {
        VertexId v = todo.back();
        todo.pop_back();
        if (drawn[v]) continue;
        drawn[v] = true;
        for (EdgeId e : g.in(v))
            if (g.edge_alive(e) && !drawn[g.source(e)]) todo.push_back(g.source(e));
    }
    return drawn;
}

// The legend's boxes in job order, kLegendRow to a row (dot would lay one
// rank out in any order, and hundreds of jobs in one row): each row a
// rank of its own chained by invisible edges, each row below the last.
void write_legend_rows(const std::map<int64_t, bool>& jobs, std::ostream& out) {
    std::vector<int64_t> ids;
    for (const auto& entry : jobs) ids.push_back(entry.first);
    for (size_t row = 0; row * kLegendRow < ids.size(); ++row) {
        const size_t first = row * kLegendRow, last = std::min(ids.size(), first + kLegendRow);
        if (row > 0) out << "legend_job" << ids[first - kLegendRow] << "->legend_job" << ids[first] << " [style=invis];\n";
        if (last - first < 2) continue;
        out << "{rank=same; ";
        for (size_t i = first; i < last; ++i) out << (i == first ? "" : "->") << "legend_job" << ids[i];
        out << " [style=invis];}\n";
    }
}

// The legend: one box per job present, in its colour and style.
void write_legend(const AllocationMap& holders, std::ostream& out) {
    std::map<int64_t, bool> jobs;  // job -> reserved only
    for (const auto& [v, h] : holders) {
        for (int64_t job : h.allocated) jobs[job] = false;
        for (int64_t job : h.reserved) jobs.emplace(job, true);
    }
    out << "subgraph cluster_legend {\nlabel=\"jobs\";\n";
    if (jobs.empty()) out << "legend_none [label=\"no job holds a resource\", style=\"\"];\n";
    for (const auto& [job, reserved] : jobs) {
        VertexHolders h;
        (reserved ? h.reserved : h.allocated).push_back(job);
        out << "legend_job" << job << " [label=" << quoted(job_word(job, reserved)) << ", id=\"legend_job" << job
            << "\"" << style_of(h) << "];\n";
    }
    write_legend_rows(jobs, out);
    out << "}\n";
}

}  // namespace

const std::vector<std::string>& job_palette() {
    // ColorBrewer's Set3 (light enough for black text), its grey swapped
    // for a tan: grey reads as "down" or "unavailable".
    static const std::vector<std::string> palette = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                                                     "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
                                                     "#e5c494", "#bc80bd", "#ccebc5", "#ffed6f"};
    return palette;
}

const std::string& job_colour(int64_t jobid) {
    const auto& palette = job_palette();
    const auto n = static_cast<int64_t>(palette.size());
    return palette[static_cast<size_t>(((jobid - 1) % n + n) % n)];
}

size_t write_allocation_dot(const ResourceGraph& g, const AllocationMap& holders, std::ostream& out,
                            const AllocationDotOptions& options) {
    std::vector<bool> drawn = drawn_vertices(g, holders, options.held_only);
    out << "digraph allocations {\nnode [shape=box];\n";
    size_t count = 0;
    for (VertexId v = 0; v < g.num_vertices(); ++v) {
        if (!drawn[v]) continue;
        ++count;
        auto held = holders.find(v);
        out << v << " [id=\"v" << v << "\"";
        // The path as the tooltip: names repeat (every node has a core0),
        // paths do not, and a browser shows it on hover.
        if (g.has_path(v, 0)) out << ", tooltip=" << quoted(g.path(v, 0));
        if (held == holders.end()) {
            out << ", label=" << quoted(g.name(v)) << "];\n";
            continue;
        }
        out << ", class=" << quoted(classes_of(held->second)) << ", label=" << quoted(label_of(g.name(v), held->second))
            << style_of(held->second) << "];\n";
    }
    // Edges of the first subsystem (containment) plain; others named.
    for (EdgeId e = 0; e < g.edge_capacity(); ++e) {
        if (!g.edge_alive(e) || !drawn[g.source(e)] || !drawn[g.target(e)]) continue;
        out << g.source(e) << "->" << g.target(e);
        if (g.subsystem(e) != 0) out << " [label=" << quoted(g.subsystems().name(g.subsystem(e))) << ", style=dotted]";
        out << ";\n";
    }
    write_legend(holders, out);
    out << "}\n";
    return count;
}

// ": No space left on device" when the failed call set errno; "" when it
// did not say (a stream's failure need not).
static std::string reason() { return errno != 0 ? std::string(": ") + std::strerror(errno) : ""; }

Status export_allocation_dot(const ResourceGraph& g, const AllocationMap& holders, const std::string& path,
                             const AllocationDotOptions& options, size_t* vertices_drawn) {
    errno = 0;
    std::ofstream out(path, std::ios::trunc);
    if (!out) return make_error(Errc::kIo, "can't open " + path + " for writing" + reason());
    size_t count = write_allocation_dot(g, holders, out, options);
    out.flush();
    if (!out) return make_error(Errc::kIo, "error writing " + path + reason());
    out.close();
    if (out.fail()) return make_error(Errc::kIo, "error writing " + path + reason());
    if (vertices_drawn != nullptr) *vertices_drawn = count;
    return ok_status();
}

std::string large_picture_warning(const std::string& path, size_t vertices, bool held_only) {
    if (vertices <= kDotLayoutVertexLimit) return "";
    std::string text = path + ": " + std::to_string(vertices) + " vertices; Graphviz dot may take minutes to lay out " +
                       "more than " + std::to_string(kDotLayoutVertexLimit);
    if (!held_only) text += " (dump FILE held draws only the jobs' vertices and their ancestors)";
    return text;
}

}  // namespace rq
