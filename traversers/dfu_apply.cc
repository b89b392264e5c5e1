// update: applying an allocation made elsewhere, given as R (spec/
// traversal.md §12). The reader marks the graph like a selection would
// (spans on exclusive vertices, marks on the traversed edges), then the
// update walk records tags, checker and subtree spans and emits the result.
#include <unordered_set>

#include "resource/jgf_reader.h"
#include "resource/rv1exec_reader.h"
#include "traversers/dfu.h"

namespace rq {

namespace {

Error apply_error(const std::string& message) { return make_error(Errc::kInvalid, message); }

}  // namespace

Status DfuTraverser::take_whole(VertexId u) {
    int64_t size = graph_.size(u);
    VertexSchedule& record = store_.get(u, size);
    auto span = record.plan.add_span(at_, duration_, size);
    if (!span.ok())
        return apply_error("update: " + std::string(graph_.name(u)) + " is not free for this allocation: " +
                           span.message() + ".\n");
    if (kind_ == AllocKind::kOrElse)
        record.reservations[jobid_] = *span;
    else
        record.allocations[jobid_] = *span;
    taken_.push_back(u);
    return ok_status();
}

// Undoes a failed update: the readers take vertices one by one, so when a
// later vertex turns out busy or inconsistent the earlier ones already hold
// a span for the job. The CLI does not record a failed update, so nothing
// would ever release those spans; the reference's readers undo them too.
void DfuTraverser::drop_taken() {
    for (VertexId u : taken_) {
        VertexSchedule* record = store_.find(u);
        if (record == nullptr) continue;
        for (auto* spans : {&record->allocations, &record->reservations}) {
            auto it = spans->find(jobid_);
            if (it == spans->end()) continue;
            (void)record->plan.remove_span(it->second);
            spans->erase(it);
        }
    }
    taken_.clear();
}

Status DfuTraverser::apply_jgf(std::string_view text, bool shorthand) {
    auto doc = JgfDocument::parse(text);
    if (!doc) return doc.error();
    std::unordered_map<std::string, VertexId> vertex_of;
    std::unordered_map<std::string, JgfVertex> jgf_of;
    for (size_t i = 0; i < doc->vertex_count(); ++i) {
        auto jv = doc->vertex(i);
        if (!jv) return jv.error();
        auto u = find_consistent_vertex(graph_, *jv);
        if (!u) return u.error();
        if (jv->exclusive) {
            RQ_TRY(take_whole(*u));
            if (shorthand) RQ_TRY(take_subtree(*u));
        } else if (avail(*u) != graph_.size(*u)) {
            return apply_error("update: shared vertex " + std::string(graph_.name(*u)) +
                               " is not entirely free for this allocation.\n");
        }
        vertex_of[jv->jgf_id] = *u;
        jgf_of[jv->jgf_id] = std::move(*jv);
    }
    const VertexId root = graph_.root(dominant());
    for (size_t i = 0; i < doc->edge_count(); ++i) {
        auto je = doc->edge(i);
        if (!je) return je.error();
        auto s = vertex_of.find(je->source), t = vertex_of.find(je->target);
        if (s == vertex_of.end() || t == vertex_of.end())
            return apply_error("unpack_edge: source and/or target vertex not found" + je->source + " -> " +
                               je->target + ".\n");
        const JgfVertex& src = jgf_of[je->source];
        const JgfVertex& dst = jgf_of[je->target];
        if (s->second == root) {
            EdgeMarks& rm = graph_.root_marks(dominant());
            rm.needs = src.size;
            rm.exclusive = src.exclusive;
            rm.seq = seq_;
        }
        EdgeId edge = kNoEdge;
        for (EdgeId e : graph_.out(s->second))
            if (graph_.target(e) == t->second) {
                edge = e;
                break;
            }
        if (edge == kNoEdge)
            return apply_error("update_tgt_edge: JGF edge from " + je->source + " to " + je->target +
                               " not found in resource graph.\n");
        mark_edge(edge, dst.size, dst.exclusive);
    }
    return ok_status();
}

Status DfuTraverser::take_subtree(VertexId u) {
    // jgf_shorthand: an exclusive vertex stands for its whole containment
    // subtree, each vertex taken with its full size.
    std::vector<VertexId> stack{u};
    std::unordered_set<VertexId> seen{u};  // a cycle of edges is walked once
    while (!stack.empty()) {
        VertexId v = stack.back();
        stack.pop_back();
        for (EdgeId e : graph_.out(v)) {
            if (graph_.subsystem(e) != kContainment) continue;
            VertexId c = graph_.target(e);
            if (!seen.insert(c).second) continue;
            RQ_TRY(take_whole(c));
            mark_edge(e, graph_.size(c), true);
            stack.push_back(c);
        }
    }
    return ok_status();
}

Status DfuTraverser::apply_rv1exec(std::string_view text) {
    auto r = parse_rv1exec(text);
    if (!r) return r.error();
    const VertexId root = graph_.root(dominant());
    const std::string root_path(graph_.path(root, dominant()));
    std::map<int64_t, size_t> updated_per_rank;
    std::vector<std::pair<int64_t, VertexId>> nodes;
    for (const Rv1Entry& entry : r->entries) {
        for (int64_t rank : entry.ranks) {
            const std::string* host = r->host_of(rank);
            if (host == nullptr) return apply_error("update: no host for rank " + std::to_string(rank) + ".\n");
            std::string node_path = root_path + "/" + *host;
            VertexId node = find_vertex_at_path(graph_, node_path, rank);
            if (node == kNoVertex)
                return apply_error("update: nonexistent path (" + node_path + ") for rank " + std::to_string(rank) +
                                   ".\n");
            EdgeId root_edge = graph_.parent_edge(node, dominant());
            if (root_edge != kNoEdge) mark_edge(root_edge, graph_.size(node), true);
            nodes.emplace_back(rank, node);
            for (const auto& [type, ids] : entry.children) {
                for (int64_t id : ids) {
                    std::string path = node_path + "/" + type + std::to_string(id);
                    VertexId v = find_vertex_at_path(graph_, path, rank);
                    if (v == kNoVertex)
                        return apply_error("update: nonexistent path (" + path + ") for rank " +
                                           std::to_string(rank) + ".\n");
                    if (avail(v) != graph_.size(v))
                        return apply_error("update: " + std::string(graph_.name(v)) +
                                           " is not entirely free for this allocation.\n");
                    RQ_TRY(take_whole(v));
                    EdgeId e = graph_.parent_edge(v, dominant());
                    if (e != kNoEdge) mark_edge(e, graph_.size(v), true);
                    ++updated_per_rank[rank];
                }
            }
        }
    }
    // A node is taken whole only when every other vertex of its rank was.
    for (auto& [rank, node] : nodes) {
        auto all = graph_.by_rank().find(rank);
        size_t others = all == graph_.by_rank().end() ? 0 : all->second.size() - 1;
        if (updated_per_rank[rank] == others) RQ_TRY(take_whole(node));
    }
    EdgeMarks& rm = graph_.root_marks(dominant());
    rm.needs = graph_.size(root);
    rm.exclusive = false;
    rm.seq = seq_;
    return ok_status();
}

MatchResult DfuTraverser::apply(const std::string& reader, std::string_view text, JobId jobid, int64_t at,
                                int64_t duration, MatchWriter& writer) {
    MatchResult result;
    ++seq_;
    selected_.clear();
    selected_sorted_ = false;
    at_ = at;
    duration_ = duration;
    kind_ = AllocKind::kAlloc;
    jobid_ = jobid;
    jobspec_ = nullptr;
    taken_.clear();
    Status marked = reader == "rv1exec" ? apply_rv1exec(text) : apply_jgf(text, reader == "jgf_shorthand");
    if (!marked.ok()) {
        drop_taken();
        message_ += marked.message();
        result.code = marked.code();
        return result;
    }
    result.at = at;
    result.duration = duration;
    if (graph_.root_marks(dominant()).seq != seq_) return result;  // nothing of ours to walk
    reweight_time_ = -1;
    if (!update(jobid, writer, false)) {
        // Nothing was emitted (so nothing tagged): only the readers' spans to undo.
        drop_taken();
        result.code = Errc::kInvalid;
    }
    reweight_time_ = 0;
    return result;
}

}  // namespace rq
