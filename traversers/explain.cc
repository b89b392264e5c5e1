#include "traversers/explain.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace rq {

namespace {

// Candidates carried from one level to the next; beyond this the check
// stays sound for the levels it reaches (it only looks at fewer vertices).
constexpr size_t kMostCandidates = 100000;

class Explainer {
public:
    Explainer(const ResourceGraph& g, const ScheduleStore& store, SubsystemId sub) : g_(g), store_(store), sub_(sub) {}

    // Checks `r` (needing `multiplier` times its count under one parent)
    // and the levels below it; false with `why_` set at the first failure.
    bool visit(const JobResource& r, const std::vector<VertexId>& parents, int64_t multiplier, const std::string& path,
               bool under_slot) {
        const int64_t need = int64_t(r.count.min) * multiplier;
        const std::string here = path + (path.empty() ? "" : "->") + r.type_name + "[" + std::to_string(need / multiplier) + "]";
        if (r.type == types::kSlot) {
            for (const JobResource& child : r.with)
                if (!visit(child, parents, need, here, true)) return false;
            return true;
        }
        std::vector<VertexId> next;
        VertexId best = kNoVertex;
        int64_t best_free = -1;
        for (VertexId p : parents) {
            std::vector<VertexId> found;
            int64_t free = collect(p, r.type, &found);
            if (free > best_free) best_free = free, best = p;
            if (free >= need && next.size() < kMostCandidates) next.insert(next.end(), found.begin(), found.end());
        }
        if (next.empty()) {
            why_ = failure(here, r.type_name, need, best, std::max<int64_t>(best_free, 0), parents.size(), under_slot);
            return false;
        }
        for (const JobResource& child : r.with)
            if (!visit(child, next, 1, here, false)) return false;
        return true;
    }

    const std::string& why() const { return why_; }

private:
    int64_t free_amount(VertexId v) const { return g_.is_up(v) ? store_.avail(v, g_.size(v), 0, 1) : 0; }

    // Calls visit(u) for each vertex u of `type` in v's subtree (v
    // included), not looking below u: a type does not nest in itself here.
    template <class Visit>
    void each_of_type(VertexId v, TypeId type, Visit visit) const {
        std::vector<VertexId> stack{v};
        while (!stack.empty()) {
            VertexId u = stack.back();
            stack.pop_back();
            if (g_.type(u) == type) {
                visit(u);
                continue;
            }
            for (EdgeId e : g_.out(u))
                if (g_.edge_alive(e) && g_.subsystem(e) == sub_) stack.push_back(g_.target(e));
        }
    }

    // Free units of `type` in v's subtree; their vertices in `found` when
    // given.
    int64_t collect(VertexId v, TypeId type, std::vector<VertexId>* found) const {
        int64_t free = 0;
        each_of_type(v, type, [&](VertexId u) {
            int64_t amount = free_amount(u);
            free += amount;
            if (amount > 0 && found != nullptr) found->push_back(u);
        });
        return free;
    }

    VertexId parent_of(VertexId v) const {
        for (EdgeId e : g_.in(v))
            if (g_.edge_alive(e) && g_.subsystem(e) == sub_) return g_.source(e);
        return kNoVertex;
    }

    int64_t count_type_under(VertexId v, TypeId type) const {
        int64_t n = 0;
        each_of_type(v, type, [&](VertexId) { ++n; });
        return n;
    }

    std::string failure(const std::string& here, const std::string& type, int64_t need, VertexId best, int64_t best_free,
                        size_t parents, bool under_slot) const {
        std::string plural = type + (need == 1 ? "" : "s");
        if (best == kNoVertex) return here + ": nothing above it to hold " + std::to_string(need) + " " + plural;
        const std::string& parent_type = g_.type_name(best);
        std::string line = here + ": ";
        if (parents == 1)
            line += "the " + parent_type + " holds " + std::to_string(best_free) + " free " + type + (best_free == 1 ? "" : "s") +
                    ", not " + std::to_string(need);
        else
            line += "no " + parent_type + " holds " + std::to_string(need) + " free " + plural + " (the best holds " +
                    std::to_string(best_free) + ")";
        // Where they are instead: the nearest ancestor that holds enough.
        TypeId t = g_.types().find(type);
        for (VertexId a = parent_of(best); a != kNoVertex; a = parent_of(a)) {
            int64_t free = collect(a, t, nullptr);
            if (free < need) continue;
            const std::string& at = g_.type_name(a);
            line += "; a " + at + " holds " + std::to_string(free) + " under " + std::to_string(count_type_under(a, g_.type(best))) +
                    " " + parent_type + "s: ask " + at + "->" + (under_slot ? "slot[1]->" : "") + type + "[" +
                    std::to_string(need) + "]";
            return line;
        }
        int64_t total = 0;
        for (VertexId v : g_.by_type(t)) total += g_.size(v);
        if (total < need) line += "; the whole graph has " + std::to_string(total);
        else line += "; no single vertex holds " + std::to_string(need) + " free (allocated, or spread out)";
        return line;
    }

    const ResourceGraph& g_;
    const ScheduleStore& store_;
    SubsystemId sub_;
    std::string why_;
};

}  // namespace

std::string explain_no_match(const ResourceGraph& graph, const ScheduleStore& store, SubsystemId dominant,
                             const Jobspec& jobspec) {
    if (!graph.has_root(dominant)) return "";
    Explainer explainer(graph, store, dominant);
    std::vector<VertexId> roots{graph.root(dominant)};
    for (const JobResource& r : jobspec.resources)
        if (!explainer.visit(r, roots, 1, "", false)) return explainer.why();
    return "";
}

}  // namespace rq
