// partial-cancel (spec/traversal.md §13): release part of a job's
// resources, given as R, and shrink the job's bookkeeping on the ancestors.
//
// Unlike the reference, everything is checked before anything is released:
// a partial cancel that fails leaves the job exactly as it was.
#include <map>
#include <unordered_set>

#include "resource/jgf_reader.h"
#include "resource/rv1exec_reader.h"
#include "traversers/dfu.h"

namespace rq {

namespace {

struct Release {
    std::vector<VertexId> vertices;  // to release, in order
};

Error partial_error(const std::string& message) { return make_error(Errc::kInvalid, message); }

}  // namespace

std::vector<EdgeId> DfuTraverser::edges_to_root(VertexId v) const {
    std::vector<EdgeId> edges;
    std::unordered_set<VertexId> passed{v};
    const VertexId root = graph_.root(dominant());
    for (VertexId u = v; u != root;) {
        EdgeId p = graph_.parent_edge(u, dominant());
        if (p == kNoEdge || !passed.insert(graph_.source(p)).second) break;
        edges.push_back(p);
        u = graph_.source(p);
    }
    return edges;
}

Status DfuTraverser::release_vertex(VertexId u, JobId jobid, std::map<TypeId, int64_t>& released) {
    // Deviation: what the job holds below u goes with it (on a GRUG graph
    // only the node carries the rank an rv1exec R names). The reference
    // drops u's tag only, so a later cancel, which walks tagged vertices,
    // never reaches the cores and they stay allocated for ever.
    std::unordered_set<VertexId> seen{u};  // edges in both directions, duplicates
    job_below(u, jobid, seen, [&](VertexId v) { release_own(v, store_.find(v), jobid, released); });
    return ok_status();
}

// u, then every vertex below it that holds the job's tag and is not in
// `seen` (u is), each once; `visit` sees a vertex after its children were
// looked up, so it may drop the vertex's tag.
template <class Visit>
void DfuTraverser::job_below(VertexId u, JobId jobid, std::unordered_set<VertexId>& seen, Visit&& visit) const {
    std::vector<VertexId> todo{u};
    while (!todo.empty()) {
        VertexId v = todo.back();
        todo.pop_back();
        if (store_.find(v) == nullptr) continue;
        for (EdgeId e : graph_.out(v)) {
            if (graph_.subsystem(e) != dominant()) continue;
            const VertexSchedule* child = store_.find(graph_.target(e));
            if (child != nullptr && child->tags.count(jobid) != 0 && seen.insert(graph_.target(e)).second)
                todo.push_back(graph_.target(e));
        }
        visit(v);
    }
}

void DfuTraverser::release_own(VertexId u, VertexSchedule* record, JobId jobid, std::map<TypeId, int64_t>& released) {
    record->tags.erase(jobid);
    (void)record->remove_x_span(jobid);
    if (SubtreePlan* plan = store_.subtree(u, 0)) (void)plan->remove_job(jobid);
    if (auto a = record->allocations.find(jobid); a != record->allocations.end()) {
        if (const Span* span = record->plan.span(a->second)) released[graph_.type(u)] += span->amount;
        (void)record->plan.remove_span(a->second);
        record->allocations.erase(a);
    }
}

Status DfuTraverser::shrink_ancestors(JobId jobid, const std::map<int64_t, VertexId>& rank_root,
                                      const std::map<int64_t, std::map<TypeId, int64_t>>& released) {
    // Amounts released below each ancestor of the rank roots (§13 step 2).
    std::map<VertexId, std::map<TypeId, int64_t>> up;
    for (auto& [rank, root] : rank_root) {
        auto r = released.find(rank);
        for (EdgeId p : edges_to_root(root)) {
            auto& acc = up[graph_.source(p)];
            if (r != released.end())
                for (auto& [t, n] : r->second) acc[t] += n;
        }
    }
    return shrink_up(jobid, up);
}

void DfuTraverser::would_release(VertexId u, JobId jobid, std::unordered_set<VertexId>& done,
                                 std::map<TypeId, int64_t>& released) const {
    if (!done.insert(u).second) return;
    job_below(u, jobid, done, [&](VertexId v) {
        const VertexSchedule* record = store_.find(v);
        if (auto a = record->allocations.find(jobid); a != record->allocations.end())
            if (const Span* span = record->plan.span(a->second)) released[graph_.type(v)] += span->amount;
    });
}

Status DfuTraverser::check_shrink(JobId jobid, const std::map<VertexId, std::map<TypeId, int64_t>>& up) const {
    for (auto& [a, amounts] : up) {
        const VertexSchedule* record = store_.find(a);
        const SubtreePlan* sub = store_.subtree(a, 0);
        if (record == nullptr || sub == nullptr || record->tags.count(jobid) == 0) continue;
        auto span = sub->job2span.find(jobid);
        if (span == sub->job2span.end()) continue;
        for (size_t i = 0; i < sub->plan.size(); ++i) {
            auto held = sub->plan.span_amount(span->second, i);
            auto found = amounts.find(sub->plan.type(i));
            int64_t by = found == amounts.end() ? 0 : found->second;
            if (held && by > *held)
                return partial_error("partial_cancel: job " + std::to_string(jobid) + " holds " +
                                     std::to_string(*held) + " " + graph_.types().name(sub->plan.type(i)) +
                                     " below " + std::string(graph_.name(a)) + ", fewer than the R releases (" +
                                     std::to_string(by) + ").\n");
        }
    }
    return ok_status();
}

Status DfuTraverser::shrink_up(JobId jobid, const std::map<VertexId, std::map<TypeId, int64_t>>& up) {
    // Step 3: reduce the job's subtree spans type by type; a span with
    // nothing left is forgotten together with the job's tag.
    for (auto& [a, amounts] : up) {
        VertexSchedule* record = store_.find(a);
        SubtreePlan* sub = store_.subtree(a, 0);
        if (record != nullptr && sub != nullptr && record->tags.count(jobid)) {
            auto span = sub->job2span.find(jobid);
            if (span != sub->job2span.end()) {
                bool alive = true;
                for (size_t i = 0; i < sub->plan.size() && alive; ++i) {
                    if (!sub->plan.span_amount(span->second, i)) continue;
                    auto found = amounts.find(sub->plan.type(i));
                    int64_t by = found == amounts.end() ? 0 : found->second;
                    auto still = sub->plan.reduce_span(span->second, i, by);
                    if (!still.ok()) return still.error();
                    alive = *still;
                }
                if (!alive) {
                    sub->job2span.erase(span);
                    record->tags.erase(jobid);
                }
            }
        }
        if (record != nullptr) (void)record->remove_x_span(jobid);
    }
    return ok_status();
}

Result<bool> DfuTraverser::partial_cancel(JobId jobid, const std::string& reader, std::string_view text) {
    ++seq_;
    Release plan;

    if (reader == "jgf") {
        auto doc = JgfDocument::parse(text);
        if (!doc) return doc.error();
        for (size_t i = 0; i < doc->vertex_count(); ++i) {
            auto jv = doc->vertex(i);
            if (!jv) return jv.error();
            auto u = find_consistent_vertex(graph_, *jv);
            if (!u) return u.error();
            const VertexSchedule* record = store_.find(*u);
            // Deviation: a shared vertex on the way to the job's resources
            // (the cluster and rack of the JGF that `-F jgf` prints) is
            // not released itself; the original refuses the whole request
            // for its missing allocation span. Its spans shrink below.
            if (record != nullptr && !jv->exclusive && record->tags.count(jobid) != 0 &&
                !record->holds_own_span(jobid))
                continue;
            if (record == nullptr || !has_exclusivity(*u, *record, jobid))
                return partial_error("partial_cancel: no exclusivity span of job " + std::to_string(jobid) +
                                     " on " + std::string(graph_.name(*u)) + ".\n");
            if (record->allocations.count(jobid) == 0)
                return partial_error("partial_cancel: no allocation span of job " + std::to_string(jobid) +
                                     " on " + std::string(graph_.name(*u)) + ".\n");
            plan.vertices.push_back(*u);
        }
    } else {
        auto r = parse_rv1exec(text, /*need_hosts=*/false);
        if (!r) return r.error();
        for (int64_t rank : r->ranks) {
            auto all = graph_.by_rank().find(rank);
            if (all == graph_.by_rank().end())
                return partial_error("partial_cancel: no vertex of rank " + std::to_string(rank) + ".\n");
            bool any = false;
            for (VertexId v : all->second) {
                const VertexSchedule* record = store_.find(v);
                if (record == nullptr || record->tags.count(jobid) == 0) continue;
                plan.vertices.push_back(v);
                any = true;
            }
            if (!any)
                return partial_error("partial_cancel: job " + std::to_string(jobid) + " holds nothing on rank " +
                                     std::to_string(rank) + ".\n");
        }
    }

    // Checked first (a failed partial cancel leaves the job as it was): an
    // ancestor's span must hold what the release takes off it, which an
    // R applied with a vertex its edges do not reach (no tag, no share in
    // the ancestors' spans) breaks.
    VertexId root = graph_.root(dominant());
    if (const VertexSchedule* top = store_.find(root); top != nullptr && top->tags.count(jobid) != 0) {
        std::unordered_set<VertexId> done;
        std::map<VertexId, std::map<TypeId, int64_t>> would;
        for (VertexId v : plan.vertices) {
            std::map<TypeId, int64_t> released;
            would_release(v, jobid, done, released);
            for (EdgeId p : edges_to_root(v)) {
                auto& acc = would[graph_.source(p)];
                for (auto& [t, n] : released) acc[t] += n;
            }
        }
        RQ_TRY(check_shrink(jobid, would));
    }

    // What each released vertex gave back counts on all its ancestors. The
    // reference (§13 step 2) walks up from one vertex per rank, the one
    // with the shortest path, and counts the whole rank there: when the
    // released cores sit under two sockets of a node the job shares (a
    // slot packed from all of a node's cores), one socket is reduced by
    // the other's cores and the other keeps the job's spans.
    std::map<VertexId, std::map<TypeId, int64_t>> up;
    for (VertexId v : plan.vertices) {
        std::map<TypeId, int64_t> released;
        RQ_TRY(release_vertex(v, jobid, released));
        for (EdgeId p : edges_to_root(v)) {
            auto& acc = up[graph_.source(p)];
            for (auto& [t, n] : released) acc[t] += n;
        }
    }

    const VertexSchedule* root_record = store_.find(root);
    if (root_record == nullptr || root_record->tags.count(jobid) == 0) {
        // Not applied through the dominant tree: release own spans only.
        for (VertexId v = 0; v < graph_.num_vertices(); ++v) {
            VertexSchedule* record = store_.find(v);
            if (record == nullptr) continue;
            if (auto a = record->allocations.find(jobid); a != record->allocations.end()) {
                (void)record->plan.remove_span(a->second);
                record->allocations.erase(a);
            } else if (auto s = record->reservations.find(jobid); s != record->reservations.end()) {
                (void)record->plan.remove_span(s->second);
                record->reservations.erase(s);
            }
        }
        return false;
    }

    RQ_TRY(shrink_up(jobid, up));
    return store_.find(root)->tags.count(jobid) == 0;
}

}  // namespace rq
