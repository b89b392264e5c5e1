#include "traversers/dfu.h"

namespace rq {

bool parse_match_op(const std::string& name, MatchOp& op) {
    static const std::pair<const char*, MatchOp> ops[] = {
        {"allocate", MatchOp::kAllocate},
        {"allocate_with_satisfiability", MatchOp::kAllocateWithSatisfiability},
        {"allocate_orelse_reserve", MatchOp::kAllocateOrElseReserve},
        {"satisfiability", MatchOp::kSatisfiability},
        {"without_allocating", MatchOp::kWithoutAllocating},
        {"without_allocating_future", MatchOp::kWithoutAllocatingFuture},
    };
    for (auto& [n, o] : ops)
        if (name == n) return op = o, true;
    return false;
}

DfuTraverser::DfuTraverser(ResourceGraph& graph, ScheduleStore& store, MatchPolicy& policy,
                           const TraverserConfig& config)
    : graph_(graph),
      store_(store),
      policy_(policy),
      subsystems_(config.subsystems),
      specs_(config.subsystems.size()),
      prune_filters_(config.prune_filters),
      flexible_(config.flexible),
      colours_(config.subsystems.size()),
      exhaustive_select_(config.exhaustive_select) {
    if (policy.node_exclusive) {
        excl_types_.resize(types::kNode + 1u, false);
        excl_types_[types::kNode] = true;
    }
}

Result<std::unique_ptr<DfuTraverser>> DfuTraverser::create(ResourceGraph& graph, ScheduleStore& store,
                                                           MatchPolicy& policy, const TraverserConfig& config) {
    if (config.subsystems.empty()) return make_error(Errc::kInvalid, "can't initialize traverser");
    std::unique_ptr<DfuTraverser> t(new DfuTraverser(graph, store, policy, config));
    if (Status parsed = t->specs_.front().parse(config.prune_filters, graph.types()); !parsed.ok()) {
        std::string known;
        for (TypeId type = 0; type < graph.types().size(); ++type)
            if (!graph.by_type(type).empty()) known += (known.empty() ? "" : ", ") + graph.types().name(type);
        return make_error(Errc::kInvalid, "can't set pruning filters",
                          "-p \"" + config.prune_filters + "\": " + parsed.message() +
                              " (a filter is HIGH:LOW, comma-separated, HIGH a type or ALL; types here: " + known +
                              ")");
    }
    RQ_TRY(t->reinstall_pruning());
    return t;
}

Status DfuTraverser::reinstall_pruning() {
    store_.resize(graph_.num_vertices());
    for (size_t slot = 0; slot < subsystems_.size(); ++slot)
        RQ_TRY(install_subtree_plans(graph_, subsystems_[slot], slot, specs_[slot], store_));
    for (auto& c : colours_) c.resize(graph_.num_vertices(), 0);
    // The graph (ids, shape) or the tracked types may have changed.
    ids_positive_ = ids_give_positive_scores(graph_);
    id_index_.reset();
    not_fresh_.clear();
    child_types_.clear();
    tracked_below_.clear();
    tracked_below_ready_.clear();
    return ok_status();
}

void DfuTraverser::reset_colours() {
    ++epoch_;
    if (epoch_ >= (UINT32_MAX >> 2)) {  // wrap-around: really clear once in a long while
        for (auto& c : colours_) std::fill(c.begin(), c.end(), 0);
        epoch_ = 1;
    }
    for (auto& c : colours_)
        if (c.size() < graph_.num_vertices()) c.resize(graph_.num_vertices(), 0);
}

}  // namespace rq
