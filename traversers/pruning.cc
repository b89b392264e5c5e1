#include "traversers/pruning.h"

#include <algorithm>
#include <cctype>

namespace rq {

namespace {

std::string strip_spaces(const std::string& s) {
    std::string out;
    for (char c : s)
        if (!std::isspace(static_cast<unsigned char>(c))) out.push_back(c);
    return out;
}

void insert_sorted(std::vector<TypeId>& set, TypeId t) {
    auto it = std::lower_bound(set.begin(), set.end(), t);
    if (it == set.end() || *it != t) set.insert(it, t);
}

}  // namespace

Status PruneSpec::parse(const std::string& spec, const Interner& types) {
    size_t start = 0;
    while (start <= spec.size()) {
        size_t end = spec.find(',', start);
        if (end == std::string::npos) end = spec.size();
        std::string pair = spec.substr(start, end - start);
        start = end + 1;
        auto colon = pair.find(':');
        if (colon == std::string::npos) return make_error(Errc::kInvalid, "no ':' in \"" + pair + "\"");
        std::string high = strip_spaces(pair.substr(0, colon)), low = strip_spaces(pair.substr(colon + 1));
        if (high.empty() || low.empty())
            return make_error(Errc::kInvalid, "an empty type in \"" + pair + "\"");
        TypeId low_type = types.find(low);
        TypeId anchor = high == "ALL" ? kAnyAnchor : types.find(high);
        if (low_type == kNoId || (high != "ALL" && anchor == kNoId)) continue;
        add(anchor, low_type);
    }
    return ok_status();
}

void PruneSpec::add(TypeId anchor, TypeId type) {
    if (anchor == kAnyAnchor) {
        for (auto& set : anchored_) set.erase(std::remove(set.begin(), set.end(), type), set.end());
        insert_sorted(any_, type);
    } else if (!std::binary_search(any_.begin(), any_.end(), type)) {
        if (anchored_.size() <= anchor) anchored_.resize(anchor + 1u);
        insert_sorted(anchored_[anchor], type);
    }
    if (tracked_.size() <= type) tracked_.resize(type + 1u, false);
    tracked_[type] = true;
}

std::vector<TypeId> PruneSpec::types_for(TypeId t) const {
    std::vector<TypeId> out;
    if (t < anchored_.size())
        for (TypeId x : anchored_[t])
            if (x != t) out.push_back(x);
    for (TypeId x : any_)
        if (x != t) out.push_back(x);
    return out;
}

namespace {

class Installer {
public:
    Installer(const ResourceGraph& g, SubsystemId s, size_t slot, PruneSpec& spec, ScheduleStore& store)
        : g_(g), s_(s), slot_(slot), spec_(spec), store_(store), colour_(g.num_vertices(), 0) {}

    // Returns the tracked-type counts strictly below u (plus u's own type
    // added to `out`).
    void prime(VertexId u, TypeCounts& out) {
        colour_[u] = 1;
        add_if_tracked(spec_, out, g_.type(u), g_.size(u));
        if (g_.is_leaf(u)) {
            if (!spec_.is_tracked(g_.type(u))) {
                spec_.add(types::kCluster, g_.type(u));
                add_if_tracked(spec_, out, g_.type(u), g_.size(u));
            }
            colour_[u] = 2;
            return;
        }
        TypeCounts below;
        for (EdgeId e : g_.out(u)) {
            if (g_.subsystem(e) != s_) continue;
            VertexId v = g_.target(e);
            if (colour_[v] == 0) prime(v, below);
        }
        below.for_each([&](TypeId t, int64_t n) { add_if_tracked(spec_, out, t, n); });
        std::vector<TypeId> types = spec_.types_for(g_.type(u));
        if (!types.empty()) {
            std::vector<int64_t> totals;
            for (TypeId t : types) totals.push_back(below.get(t));
            if (SubtreePlan* plan = store_.subtree(u, slot_))
                plan->plan.reset(types, totals);
            else
                store_.set_subtree(u, slot_, MultiPlanner(types, totals));
        }
        colour_[u] = 2;
    }

private:
    const ResourceGraph& g_;
    SubsystemId s_;
    size_t slot_;
    PruneSpec& spec_;
    ScheduleStore& store_;
    std::vector<char> colour_;
};

}  // namespace

Status install_subtree_plans(const ResourceGraph& graph, SubsystemId subsystem, size_t slot, PruneSpec& spec,
                             ScheduleStore& store) {
    if (subsystem == kNoId || !graph.has_root(subsystem))
        return make_error(Errc::kInvalid, "can't initialize traverser");
    store.resize(graph.num_vertices());
    TypeCounts top;
    Installer(graph, subsystem, slot, spec, store).prime(graph.root(subsystem), top);
    return ok_status();
}

}  // namespace rq
