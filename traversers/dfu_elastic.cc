// attach and remove: growing and shrinking the graph (spec/traversal.md
// §17). Both re-install the pruning filters, which recomputes every subtree
// plan's totals and keeps the spans already recorded.
#include "resource/jgf_reader.h"
#include "traversers/dfu.h"

namespace rq {

Status DfuTraverser::attach(std::string_view jgf_text) {
    // A document that would fail is refused whole (read_jgf checks it
    // first): the graph, the schedule store and the filters stay as they were.
    RQ_TRY(read_jgf(jgf_text, graph_));
    return reinstall_pruning();
}

void DfuTraverser::detach_subtrees(const std::vector<VertexId>& roots) {
    // One walk and one batch detach for all roots: linear in what goes.
    std::vector<VertexId> collected;
    std::vector<VertexId> stack(roots.rbegin(), roots.rend());
    std::vector<bool> seen(graph_.num_vertices(), false);
    while (!stack.empty()) {
        VertexId u = stack.back();
        stack.pop_back();
        if (seen[u] || graph_.is_removed(u)) continue;
        seen[u] = true;
        collected.push_back(u);
        for (EdgeId e : graph_.out(u))
            if (graph_.subsystem(e) == dominant()) stack.push_back(graph_.target(e));
    }
    graph_.detach_vertices(collected);
    // Their subtree plans go too (no walk reaches them again): the store
    // is then what installing the filters on the graph as it is makes,
    // which a session resumed from the state file's rows relies on.
    for (VertexId u : collected)
        for (size_t slot = 0; slot < subsystems_.size(); ++slot) store_.drop_subtree(u, slot);
}

Status DfuTraverser::remove_path(const std::string& path) {
    auto at = graph_.at_path(path);
    if (at.empty()) return make_error(Errc::kNotFound, "no resource at path " + path);
    detach_subtrees({at.back()});
    return reinstall_pruning();
}

Status DfuTraverser::remove_ranks(const std::vector<int64_t>& ranks) {
    // Clear the rank's vertices, remembering what each job held per rank.
    std::map<JobId, std::map<int64_t, std::map<TypeId, int64_t>>> released;
    std::map<int64_t, VertexId> rank_root;
    std::vector<VertexId> doomed;
    for (int64_t rank : ranks) {
        auto all = graph_.by_rank().find(rank);
        if (all == graph_.by_rank().end()) continue;
        for (VertexId v : all->second) {
            doomed.push_back(v);
            auto r = rank_root.find(rank);
            if (r == rank_root.end() ||
                graph_.path(v, kContainment).size() < graph_.path(r->second, kContainment).size())
                rank_root[rank] = v;
            // The subtree plan goes whether or not the vertex was ever
            // scheduled, so the store does not depend on its history.
            store_.drop_subtree(v, 0);
            VertexSchedule* record = store_.find(v);
            if (record == nullptr) continue;
            for (JobId job : record->tags) released[job][rank];  // the job touched this rank
            // Reservations too: a job reserved on the rank counts its units
            // on the ancestors like an allocated one, and they must go with
            // the rank (otherwise the ancestors keep counting units that no
            // longer exist, against totals that no longer include them).
            for (auto* spans : {&record->allocations, &record->reservations})
                for (auto& [job, span] : *spans)
                    if (const Span* s = record->plan.span(span)) released[job][rank][graph_.type(v)] += s->amount;
            store_.clear(v);
        }
    }
    VertexId root = graph_.root(dominant());
    for (auto& [job, amounts] : released) {
        const VertexSchedule* root_record = store_.find(root);
        if (root_record == nullptr || root_record->tags.count(job) == 0) continue;
        std::map<int64_t, VertexId> roots;
        for (auto& [rank, unused] : amounts)
            if (rank_root.count(rank)) roots[rank] = rank_root[rank];
        RQ_TRY(shrink_ancestors(job, roots, amounts));
    }
    detach_subtrees(doomed);
    return reinstall_pruning();
}

}  // namespace rq
