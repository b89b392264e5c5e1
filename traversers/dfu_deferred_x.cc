// Deferred exclusivity checkers (docs/matching.md "Deferred checkers").
//
// Every vertex a job touches records it in its exclusivity checker, which
// prune() reads only where a request names the vertex's type (an
// exclusive node, a slot of sockets: traversal.md §5). A replay of
// single-core slots never names a type whose vertices carry checker
// spans (a core's own span stands for its checker, dfu_update.cc), yet
// it wrote and removed one span per job on each of its node, socket, rack
// and the root, whose checker holds every running job: a sixth of the
// replay's time. While deferred, the update writes none and remembers
// the job's window; a request that names a type some vertex of which
// carries checker spans, and turning deferral off, first write every
// deferred span out, so that no reader ever sees a checker without them.
//
// Only the selection reads checkers among the traverser's callers that
// defer (Simulator::set_owns_traverser); find, R, the saved state and the
// partial cancel read them outside a replay, after the simulator turned
// deferral off again.
#include "traversers/dfu.h"

namespace rq {

void DfuTraverser::set_deferred_checkers(bool on) {
    if (on == x_deferred_) return;
    if (!on) {
        write_deferred_checkers();
        x_deferred_ = false;
        return;
    }
    // The types of the vertices update() gives a checker span.
    x_types_.assign(graph_.types().size(), 0);
    for (VertexId v = 0; v < graph_.num_vertices(); ++v) {
        TypeId t = graph_.type(v);
        if (t >= x_types_.size()) x_types_.resize(t + 1u, 0);
        if (!own_span_stands_for_exclusivity(v)) x_types_[t] = 1;
    }
    x_windows_.clear();
    x_deferred_ = true;
}

bool DfuTraverser::reads_checkers(const std::vector<JobResource>& resources) const {
    for (const JobResource& r : resources) {
        if (r.type != types::kSlot && r.type != types::kXorSlot && (r.type >= x_types_.size() || x_types_[r.type]))
            return true;
        if (reads_checkers(r.with)) return true;
    }
    return false;
}

// The spans update() would have written: one per deferred job a vertex
// is tagged with, unless the vertex already holds the job's exclusivity
// (its own span stands for it, or the pool matcher or `update` wrote the
// span at once).
void DfuTraverser::write_deferred_checkers() {
    for (VertexId v = 0; v < graph_.num_vertices() && !x_windows_.empty(); ++v) {
        VertexSchedule* record = store_.find(v);
        if (record == nullptr || record->tags.empty()) continue;
        for (JobId job : record->tags) {
            auto window = x_windows_.find(job);
            if (window == x_windows_.end() || has_exclusivity(v, *record, job)) continue;
            record->add_x_span(job, window->second.first, window->second.second);
        }
    }
    x_windows_.clear();
}

}  // namespace rq
