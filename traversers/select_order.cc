#include "traversers/select_order.h"

#include <algorithm>
#include <cstdlib>

namespace rq {

IdOrderIndex::IdOrderIndex(const ResourceGraph& graph, SubsystemId s, TypeId t, IdOrder order,
                           const NoneBelow& none_below, int64_t t_total)
    : none_below_(&none_below), subsystem_(s), type_(t), order_(order) {
    int64_t best = 0;
    if (t_total >= 0) {
        shallow_ = true;
        build(graph, graph.root(s), 0, 0, best);
        shallow_ = false;
        if (usable_ && t_found_ == t_total) {
            none_below_ = nullptr;
            stack_ = {};
            return;
        }
        children_.clear();  // a T vertex holds another: walk everything
        usable_ = true;
        best = 0;
    }
    build(graph, graph.root(s), 0, 0, best);
    none_below_ = nullptr;
    stack_ = {};
}

bool IdOrderIndex::build(const ResourceGraph& graph, VertexId v, int64_t factor, int depth, int64_t& best) {
    if (depth > 4096) {  // a cycle or an absurd depth: no fast path
        usable_ = false;
        return false;
    }
    bool is_node = graph.type(v) == types::kNode;
    bool found = false;
    if (graph.type(v) == type_) {
        best = graph.id(v) + 2 + (order_.node_centric ? factor : 0);
        found = true;
        if (shallow_) {
            t_found_ += graph.size(v);
            return true;
        }
    }
    int64_t below_factor = factor;
    if (order_.node_centric && is_node) {
        if (factor != 0) usable_ = false;  // nested nodes: the factor bookkeeping drifts
        below_factor = (graph.id(v) + 2) * 10000 + std::llabs(graph.uniq_id(v) % 10000 - 1);
    }
    // Nothing of the type below: nothing to index (with the node factor, a
    // node is walked anyway to see nested nodes, unless the type is node:
    // then none below means no nested node either).
    if ((!(order_.node_centric && is_node) || type_ == types::kNode) && (*none_below_)(v)) return found;
    // v's children go on the shared stack above `base` (the recursive calls
    // take theirs off before they return): one allocation per list kept.
    const size_t base = stack_.size();
    for (EdgeId e : graph.out(v)) {
        if (graph.subsystem(e) != subsystem_) continue;
        VertexId w = graph.target(e);
        if (graph.is_leaf(w) && graph.type(w) != type_) continue;  // the bulk of a graph: skip cheaply
        int64_t child_best = 0;
        if (!build(graph, w, below_factor, depth + 1, child_best)) continue;
        stack_.push_back({child_best, e});
        if (!found || worse(best, child_best)) best = child_best;
        found = true;
    }
    if (stack_.size() > base) {
        // Stable: equal bounds keep the out-edge order. Ids mostly run in
        // out-edge order, so the list is often sorted already, or strictly
        // the wrong way round (then reversing it is the stable sort).
        auto first = stack_.begin() + static_cast<std::ptrdiff_t>(base), last = stack_.end();
        auto before = [this](const Child& a, const Child& b) { return worse(b.bound, a.bound); };
        // A pair not in strictly wrong order (a not strictly worse than b).
        auto not_reversed = [this](const Child& a, const Child& b) { return !worse(a.bound, b.bound); };
        if (std::is_sorted(first, last, before)) {
            // already in order
        } else if (std::adjacent_find(first, last, not_reversed) == last) {
            std::reverse(first, last);
        } else {
            std::stable_sort(first, last, before);
        }
        children_.emplace(v, std::vector<Child>(first, last));
        stack_.resize(base);
    }
    return found;
}

const std::vector<IdOrderIndex::Child>* IdOrderIndex::children(VertexId u) const {
    auto it = children_.find(u);
    return it == children_.end() ? nullptr : &it->second;
}

void IdOrderIndex::begin_walk(int64_t at, int64_t d, const std::vector<int64_t>& request) const {
    uint64_t releases = Planner::release_count();
    if (at == marks_at_ && d == marks_d_ && releases == marks_releases_ && request == marks_request_) return;
    full_.clear();
    marks_at_ = at, marks_d_ = d, marks_releases_ = releases;
    marks_request_ = request;
}

size_t IdOrderIndex::next_open(VertexId u, size_t i) const {
    auto it = full_.find(u);
    if (it == full_.end()) return i;
    std::vector<uint32_t>& next = it->second;
    if (i >= next.size()) return i;
    while (next[i] != i) {
        next[i] = next[next[i]];
        i = next[i];
    }
    return i;
}

void IdOrderIndex::mark_full(VertexId u, size_t i) const {
    auto kids = children_.find(u);
    if (kids == children_.end() || i >= kids->second.size()) return;
    std::vector<uint32_t>& next = full_[u];
    if (next.empty()) {
        next.resize(kids->second.size() + 1);
        for (size_t k = 0; k < next.size(); ++k) next[k] = static_cast<uint32_t>(k);
    }
    next[i] = static_cast<uint32_t>(i + 1);
}

bool ids_give_positive_scores(const ResourceGraph& graph) {
    for (VertexId v = 0; v < graph.num_vertices(); ++v)
        if (!graph.is_removed(v) && graph.id(v) < -1) return false;
    return true;
}

}  // namespace rq
