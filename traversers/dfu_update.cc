// The update walk (spec/traversal.md §10): follows the edges the selection
// marked, records the job in every planner on the way (RFC 16 records) and
// emits the vertices and edges to the writer, in post-order.
#include "traversers/dfu.h"

namespace rq {

bool DfuTraverser::update(JobId jobid, MatchWriter& writer, bool full) {
    jobid_ = jobid;
    writer_ = &writer;
    leaf_edges_ = writer.reads_leaf_edges();
    full_update_ = full;
    reset_colours();
    sort_selected();
    level_ = 0;
    VertexId root = graph_.root(dominant());
    const EdgeMarks& root_marks = graph_.root_marks(dominant());
    TypeCounts out;
    int64_t n = upd(root, root_marks.needs, root_marks.exclusive, is_exclusive_type(graph_.type(root)), false, out);
    writer_ = nullptr;
    if (n <= 0) return false;
    if (x_deferred_ && full && kind_ != AllocKind::kNoAlloc) x_windows_[jobid] = {at_, duration_};
    writer.time(at_, at_ + duration_);
    if (jobspec_ != nullptr && !jobspec_->queue.empty()) writer.attribute("queue", jobspec_->queue);
    return true;
}

void DfuTraverser::reweight(EdgeId e, int64_t query_time) {
    const SubtreePlan* plan = store_.subtree(graph_.target(e), 0);
    if (plan == nullptr || plan->plan.size() == 0) return;
    size_t last = plan->plan.size() - 1;
    int64_t available = query_time < 0 ? 0 : plan->plan.planner(last).avail_at(query_time);
    if (available == 0 && plan->plan.span_count(last) == 0) return;
    graph_.set_weight(e, static_cast<uint64_t>(available));
}

void DfuTraverser::reweight_at_now(const std::vector<EdgeId>& edges) {
    if (!policy_.stop_on_first) return;
    for (EdgeId e : edges) reweight(e, now_);
}

// The exclusivity checker of a vertex counts every job touching it, for
// prune()'s exclusive test (traversal.md §5). On a leaf of size 1 a job
// that holds it exclusively also holds its whole own planner over the same
// window, and prune() turns the vertex away on that planner (nothing
// free) before it reads the checker; find's free-at test reads both. So
// the checker span would say nothing the own span does not, and is not
// written: a core's update and release touch one planner and one job
// table less. Only leaves: a partial cancel drops ancestors' checker spans
// while their own spans stay, and the root's span gives a job its window
// (state/job_r.cc). has_exclusivity() reads both.
// Of a vertex whose own span holds its one unit (needs == 1, checked where
// the span is written).
bool DfuTraverser::own_span_stands_for_exclusivity(VertexId u) const {
    return graph_.size(u) == 1 && graph_.out(u).empty() && u != graph_.root(dominant());
}

bool DfuTraverser::has_exclusivity(VertexId u, const VertexSchedule& record, JobId jobid) const {
    if (record.x_spans().count(jobid) != 0) return true;
    return own_span_stands_for_exclusivity(u) && record.holds_own_span(jobid);
}

int64_t DfuTraverser::upd(VertexId u, int64_t needs, bool x, bool shadow, bool parent_excl,
                          TypeCounts& out) {
    bool mod = shadow || is_exclusive_type(graph_.type(u));
    x = x || mod;
    ++level_;
    set_colour(0, u, kGrey);
    TypeCounts below;
    int64_t n = 0;
    // Only leaves taken, each whole: one hold at u instead of their records.
    const uint64_t held_leaves = leaf_holds_ ? leaves_taken(u, mod) : 0;
    // Only dominant edges are followed (auxiliary subsystems are never
    // updated). In shadow mode every child is taken; otherwise only the
    // edges the selection marked, in out-edge order.
    auto follow = [&](EdgeId e) {
        VertexId v = graph_.target(e);
        if (graph_.subsystem(e) != dominant() || colour(0, v) != kWhite) return;
        const EdgeMarks& m = graph_.marks(e);
        if (m.seq != seq_ && !mod) return;
        bool xv = m.exclusive || mod;
        int64_t nv = mod ? graph_.size(v) : m.needs;
        int64_t k = upd(v, nv, xv, mod, x, below);
        if (k > 0) {
            if (policy_.stop_on_first) reweight(e, reweight_time_);
            writer_->edge(graph_, e, x);
            n += k;
        }
    };
    if (held_leaves != 0) {
        n += upd_held_leaves(u, held_leaves, x, below);
    } else if (mod) {
        for (EdgeId e : graph_.out(u)) follow(e);
    } else if (scans_selected(u)) {
        // Out-edge order; stop after the last selected one.
        uint32_t left = selected_count(u);
        for (EdgeId e : graph_.out(u)) {
            if (left == 0) break;
            if (graph_.marks(e).seq != seq_) continue;
            --left;
            follow(e);
        }
    } else {
        auto [first, last] = selected_children(u);
        for (const EdgeId* e = first; e != last; ++e) follow(*e);
    }
    set_colour(0, u, kBlack);

    const PruneSpec& spec = specs_.front();
    VertexSchedule* found = nullptr;  // u's record, once looked up
    bool own_is_exclusivity = false;  // see own_span_stands_for_exclusivity()
    if (kind_ == AllocKind::kNoAlloc) {
        if (x) ++n;
    } else {
        if (x) {
            ++n;
            if (full_update_) {
                VertexSchedule& record = *(found = &store_.get(u, graph_.size(u)));
                auto span = record.plan.add_span(at_, duration_, needs);
                if (!span.ok()) {
                    message_ += "update: can't add a span to " + std::string(graph_.name(u)) + ": " +
                                span.message() + "\n";
                } else {
                    if (kind_ == AllocKind::kOrElse)
                        record.reservations[jobid_] = *span;
                    else
                        record.allocations[jobid_] = *span;
                    own_is_exclusivity = needs == 1 && own_span_stands_for_exclusivity(u);
                }
            }
        }
        if (n > 0) {
            VertexSchedule& record = found ? *found : *(found = &store_.get(u, graph_.size(u)));
            record.tags.insert(jobid_);
            if (held_leaves != 0)
                record.add_leaf_hold(jobid_, LeafHold{at_, duration_, held_leaves, kind_ == AllocKind::kOrElse});
            // Deferred (dfu_deferred_x.cc): written out before anything reads it.
            if (!own_is_exclusivity && !(x_deferred_ && full_update_)) record.add_x_span(jobid_, at_, duration_);
            SubtreePlan* plan = store_.subtree(u, 0);
            if (plan != nullptr && !below.empty()) {
                std::vector<int64_t>& amounts = amounts_;  // used before any other upd() call
                amounts.clear();
                for (size_t i = 0; i < plan->plan.size(); ++i) amounts.push_back(below.get(plan->plan.type(i)));
                auto mspan = plan->plan.add_span(at_, duration_, amounts);
                if (mspan.ok())
                    plan->job2span[jobid_] = *mspan;
                else
                    message_ += "update: can't add a subtree span to " + std::string(graph_.name(u)) + ": " +
                                mspan.message() + "\n";
            }
            add_if_tracked(spec, out, graph_.type(u), x ? graph_.size(u) : graph_.size(u) - needs);
            below.for_each([&](TypeId t, int64_t c) { add_if_tracked(spec, out, t, c); });
        }
    }
    if (n > 0) {
        VertexEmission emission;
        emission.vertex = u;
        emission.needs = needs;
        emission.exclusive = x;
        emission.parent_exclusive = parent_excl;
        emission.level = level_;
        if (const VertexSchedule* record = found ? found : store_.find(u); record && !record->ephemeral.empty())
            emission.ephemeral = record->ephemeral.get();
        writer_->vertex(graph_, emission);
    }
    --level_;
    return n;
}

}  // namespace rq
