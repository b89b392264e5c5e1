// Selection: the depth-first walk that scores candidates and marks the
// chosen edges (spec/traversal.md §4-§8).
#include <algorithm>
#include "utilities/saturating.h"

#include "traversers/dfu.h"
#include "traversers/early_stop.h"

namespace rq {

int64_t DfuTraverser::avail(VertexId v) const {
    return store_.avail(v, graph_.size(v), at_, duration_);
}

Errc DfuTraverser::select(std::vector<JobResource>& resources, int64_t at) {
    if (const IdOrderIndex* index = ordered_index(resources)) {
        // The ordered walk, kept only when its choice provably is the
        // exhaustive walk's; otherwise (ties at the cut, a failure, a
        // message) the exhaustive walk decides, as the reference would.
        size_t mark = message_.size();
        walk_ = OrderedWalk{};
        walk_.index = index;
        walk_.request = &resources.front();
        // What prune() at a vertex of the requested type depends on,
        // besides the planners and the window (IdOrderIndex::mark_full).
        const JobResource& r = resources.front();
        walk_request_.assign({r.type, static_cast<int64_t>(r.exclusive), x_root_});
        for (auto& [t, n] : r.aggregate) walk_request_.push_back(t), walk_request_.push_back(n);
        index->begin_walk(at, duration_, walk_request_);
        bool exact = false;
        Errc code = select_once(resources, at, &exact);
        walk_.index = nullptr;
        if (code == Errc::kOk && exact && !walk_.inexact && message_.size() == mark)
            return ++ordered_selections_, code;
        // A failure is the exhaustive walk's when the ordered walk saw
        // every candidate (failure_is_exact(), dfu_select_fast.cc).
        if (code != Errc::kOk && failure_is_exact() && message_.size() == mark) return code;
        message_.resize(mark);
    }
    return select_once(resources, at, nullptr);
}

Errc DfuTraverser::select_once(std::vector<JobResource>& resources, int64_t at, bool* exact) {
    at_ = at;
    // A walk at now either starts the job or fails; only a reservation
    // (a walk after now, the last of its run) keeps its steps for a proof
    // (queue/kept_reservations.cc), so a walk at now records none.
    record_steps_ = track_orders_ && at > now_;
    if (track_orders_) {
        order_walk_.steps.clear();
        order_walk_.stopped.clear();
        order_walk_.tallies.clear();
        order_walk_.fixed.clear();
        order_walk_.folded_steps = 0;
        dfv_calls_ = 0;
        other_walk_ = false;
        walk_ties_ = ScoreSet::ties();
    }
    ++seq_;
    selected_.clear();
    selected_sorted_ = false;
    reset_colours();
    preorder_ = postorder_ = 0;
    VertexId root = graph_.root(dominant());
    ScoreSet outer;
    bool x = x_root_;
    if (!dom_dfv(root, resources, true, x, outer)) return Errc::kBusy;
    EGroup group;
    group.score = outer.score;
    group.count = outer.avail;
    group.exclusive = x_root_;
    group.root = true;
    group.edges.push_back({outer.avail, outer.avail, x_root_, kNoEdge});
    outer.add(dominant(), graph_.type(root), std::move(group));
    int64_t root_needs = 1;
    if (!resolve_graph(root, resources, outer, root_needs)) return Errc::kUnsatisfiable;
    if (exact != nullptr) *exact = choice_is_exact(outer);
    EdgeMarks& marks = graph_.root_marks(dominant());
    marks.needs = root_needs;
    marks.exclusive = x_root_;
    marks.seq = seq_;
    return Errc::kOk;
}

bool DfuTraverser::dom_dfv(VertexId u, const std::vector<JobResource>& resources, bool pristine, bool& excl,
                           ScoreSet& parent) {
    bool matched = false;
    if (graph_.out(u).empty() && visit_leaf(u, resources, excl, parent, matched)) return matched;
    TypeId type = graph_.type(u);
    bool x_in = excl;
    for (const JobResource& r : resources)
        if (r.type == type && r.exclusive == Tristate::kTrue) x_in = true;
    excl = x_in;

    Classified c = classify(u, resources, pristine);
    ++preorder_;
    ++dfv_calls_;
    if (c.kind == Kind::kNone) return false;
    int64_t a = -1;  // avail(u), read by prune() when it got that far
    if (prune(u, resources, x_in, &a)) return false;
    PolicyContext ctx{graph_, dominant()};
    if (!policy_.discover(ctx, u)) return false;

    set_colour(0, u, kGrey);
    ScoreSet scores;
    if (c.kind == Kind::kSlot && flexible_) {
        dom_or_slot(u, *c.next, c.nslots, scores);
    } else if (c.kind == Kind::kSlot) {
        dom_slot(u, *c.next, c.nslots, scores, c.below, c.owned);
    } else if (!graph_.out(u).empty()) {
        // A leaf (a core) has nothing to explore: skipping the call changes
        // no result, and the walk visits one per unit a job asks for.
        for (size_t slot = 0; slot < subsystems_.size(); ++slot) {
            if (slot == 0)
                explore_down(u, subsystems_[0], *c.next, c.pristine, x_in, scores, 1);
            else
                explore_aux(u, subsystems_[slot], slot, *c.next, scores);
        }
    }
    set_colour(0, u, kBlack);

    if (a < 0) a = avail(u);
    if (a == 0) return false;
    if (!policy_.finish_vtx(ctx, u, resources, scores)) return false;
    resolve(u, scores, parent);
    parent.avail = a;
    parent.score = scores.score;

    for (const JobResource& r : resources) {
        if (r.type != type || r.label.empty()) continue;
        auto [it, fresh] = label_seq_.emplace(u, seq_);
        if (!fresh && it->second == seq_) return false;  // labelled twice in one walk
        it->second = seq_;
        store_.get(u, graph_.size(u)).ephemeral["label"] = r.label;
        store_.note_labels(u);
    }
    ++postorder_;
    return true;
}

bool DfuTraverser::has_child_of_type(VertexId u, TypeId t) {
    for (const ChildType& c : child_types(u))
        if (c.type == t) return true;
    return false;
}

const DfuTraverser::ChildTypes& DfuTraverser::child_types(VertexId u) {
    auto [it, fresh] = child_types_.try_emplace(u);
    if (!fresh) return it->second;
    ChildTypes& types = it->second;
    for (EdgeId e : graph_.out(u)) {
        VertexId v = graph_.target(e);
        bool inner = graph_.subsystem(e) == dominant() && !graph_.is_leaf(v);
        auto known = std::find_if(types.begin(), types.end(),
                                  [&](const ChildType& c) { return c.type == graph_.type(v); });
        if (known == types.end())
            types.push_back({graph_.type(v), inner});
        else
            known->dominant_inner = known->dominant_inner || inner;
    }
    return types;
}

DfuTraverser::Classified DfuTraverser::classify(VertexId u, const std::vector<JobResource>& resources,
                                                bool pristine) {
    if (flexible_) return classify_flexible(u, resources, pristine);
    TypeId type = graph_.type(u);
    const JobResource* match = nullptr;
    const JobResource* slot = nullptr;
    uint32_t nslots = 0;
    bool matched = false;
    Classified c;
    for (const JobResource& r : resources) {
        if (r.type == type || r.type == types::kSlot) {
            if (matched) {
                message_ += "test: siblings in jobspec request same resource type : " + graph_.type_name(u) + ".\n";
                c.kind = Kind::kNone;
                c.next = &resources;
                return c;
            }
            matched = true;
            if (r.type == type) {
                match = &r;
                for (const JobResource& child : r.with) {
                    if (child.type == types::kSlot) {
                        slot = &child;
                        nslots = effective_max(child);
                    }
                }
            } else {
                slot = &r;
                nslots = effective_max(r);
            }
        }
    }
    if (slot != nullptr) {
        bool shape_here = std::all_of(slot->with.begin(), slot->with.end(),
                                      [&](const JobResource& m) { return has_child_of_type(u, m.type); });
        // Deviation (traversal.md §7 corner case): the slot of a matched
        // resource whose members sit deeper (node -> socket -> L3 cache ->
        // core) is packed here from all of them, as on the flat graph
        // `-W node,core` loads (dfu_slot_below.cc); the original packs it
        // at the first vertex below with direct member children, then
        // fails to mark the way down to it.
        if (shape_here || match != nullptr) {
            c.kind = Kind::kSlot;
            c.next = &slot->with;
            c.nslots = nslots;
            c.pristine = false;
            c.below = !shape_here || may_hold_members(u, slot->with);
            c.owned = match != nullptr;
            return c;
        }
        // A slot at the top of the request whose members sit deeper is
        // looked for below, through this vertex (prefix omission).
        c.kind = Kind::kPristineNone;  // walked through, as prefix omission does
        c.next = &resources;
        c.pristine = pristine;  // unchanged: only the failing case differs
        return c;
    }
    return resource_or_none(c, match, resources, pristine);
}

// The end of classify() for both traversers: descend into the matched
// resource's `with`, or keep looking for `resources` below.
DfuTraverser::Classified& DfuTraverser::resource_or_none(Classified& c, const JobResource* match,
                                                         const std::vector<JobResource>& resources, bool pristine) {
    if (match != nullptr) {
        c.kind = Kind::kResource;
        c.next = &match->with;
        c.pristine = false;
        return c;
    }
    c.kind = pristine ? Kind::kPristineNone : Kind::kNone;
    c.next = &resources;
    c.pristine = pristine;
    return c;
}

bool DfuTraverser::prune(VertexId u, const std::vector<JobResource>& resources, bool x_in, int64_t* avail_out) {
    if (!graph_.is_up(u) && kind_ != AllocKind::kSat) return true;
    TypeId type = graph_.type(u);
    if (jobspec_->constraint && (type == types::kNode || type == types::kStorageNode) &&
        !jobspec_->constraint->matches(graph_.name(u), graph_.rank(u), graph_.properties(u)))
        return true;
    int64_t available = avail(u);
    if (avail_out != nullptr) *avail_out = available;
    if (available == 0) return true;
    const VertexSchedule* record = store_.find(u);
    const SubtreePlan* plan = store_.subtree(u, 0);
    for (const JobResource& r : resources) {
        if (r.type != type && r.type != types::kSlot) continue;
        if (r.type != types::kSlot) {
            if (x_in && r.exclusive == Tristate::kFalse) {
                message_ += "by_excl: exclusivity conflicts at jobspec=" + r.label + " : vertex=" +
                            std::string(graph_.name(u));
                return true;
            }
            if ((x_in || r.exclusive == Tristate::kTrue) && record != nullptr) {
                if (at_ == 0 && (kind_ == AllocKind::kAlloc || kind_ == AllocKind::kNoAlloc) &&
                    !record->allocations.empty())
                    return true;
                if (!record->x_checker().fits(at_, duration_, kCheckerCapacity)) return true;
            }
        }
        if (flexible_ && (r.type == types::kSlot || r.type == types::kXorSlot)) continue;
        if (plan != nullptr && !r.aggregate.empty()) {
            std::vector<int64_t>& request = request_;
            request.assign(plan->plan.size(), 0);
            for (auto& [t, n] : r.aggregate) {
                int64_t i = plan->plan.index_of(t);
                if (i >= 0) request[static_cast<size_t>(i)] = n;
            }
            if (!plan->plan.fits(at_, duration_, request)) return fit_rejected_ = u, true;
        }
    }
    return false;
}

bool DfuTraverser::explore_down(VertexId u, SubsystemId s, const std::vector<JobResource>& list, bool pristine,
                                bool x, ScoreSet& scores, uint32_t multiplier) {
    bool any = false;
    auto visit = [&](EdgeId e) {
        VertexId v = graph_.target(e);
        bool x_child = x;
        if (!dom_dfv(v, list, pristine, x_child, scores)) return false;
        scores.add(s, graph_.type(v), EGroup::of_child(scores.score, scores.avail, x_child, e));
        any = true;
        return true;
    };

    // Below the root, cannot_hold() already turned such a vertex away.
    if (pristine && u == graph_.root(s) && level_refused(u, list)) return false;
    if (!policy_.stop_on_first && walk_.index != nullptr && pristine) {
        // Best candidates first; stop once the rest cannot change the choice.
        const IdOrderIndex& index = *walk_.index;
        const auto* children = index.children(u);
        if (children == nullptr) return false;
        // Taken children marked by earlier walks are skipped (see
        // IdOrderIndex::mark_full); only with a single requested resource,
        // as surely_rejected() decides.
        const bool skip = list.size() == 1;
        for (size_t i = skip ? index.next_open(u, 0) : 0; i < children->size();
             i = skip ? index.next_open(u, i + 1) : i + 1) {
            const IdOrderIndex::Child& child = (*children)[i];
            if (beyond_threshold(child.bound)) {
                walk_.cut = true;
                break;
            }
            VertexId v = graph_.target(child.edge);
            if (graph_.subsystem(child.edge) != s || colour(0, v) != kWhite || cannot_hold(v, list)) continue;
            if (surely_rejected(v, list)) {
                index.mark_full(u, i);
                continue;
            }
            size_t messages = message_.size();
            fit_rejected_ = kNoVertex;
            if (visit(child.edge)) {
                if (graph_.type(v) == walk_.index->type()) record_candidate(scores.score, scores.avail);
            } else if (skip && fit_rejected_ == v && message_.size() == messages) {
                // Its subtree cannot fit this request in this window: it
                // cannot later either, until a planner gives units back.
                index.mark_full(u, i);
            }
        }
        return any;
    }
    if (!policy_.stop_on_first) {
        for (EdgeId e : graph_.out(u)) {
            VertexId v = graph_.target(e);
            if (graph_.subsystem(e) != s || colour(0, v) != kWhite) continue;
            if (pristine && cannot_hold(v, list)) continue;
            visit(e);
        }
        return any;
    }

    // Early stop (§4.4): children by descending weight, stop once every
    // listed type has `multiplier` shares.
    EarlyStop early_stop(list, multiplier);
    auto step = [&](EdgeId e) {  // true: stop the walk
        VertexId v = graph_.target(e);
        if (graph_.subsystem(e) != s || colour(0, v) != kWhite || early_stop.satisfied(graph_.type(v))) return false;
        if (pristine && cannot_hold(v, list)) return false;
        bool ok = visit(e);
        if (!ok) {
            if (record_steps_) order_walk_.steps.push_back({u, e, false, 0});
            return false;
        }
        bool stop = early_stop.update(scores, s);
        if (record_steps_) {
            order_walk_.steps.push_back({u, e, true, early_stop.single() ? early_stop.last_added() : -1});
            if (stop) order_walk_.stopped.push_back(u);
        }
        return stop;
    };
    note_order_read(u);
    FreshOrder fresh;
    if (fresh_child_order(u, fresh)) {
        for (size_t i = 0; i < fresh.size; ++i)
            if (step(fresh.edges[i])) break;
    } else {
        // Selection never reweights; building other vertices' indexes while
        // we iterate leaves this one (a node-based map entry) in place.
        for (const OrderedChild& child : graph_.ordered_children(u))
            if (step(child.edge)) break;
    }
    if (record_steps_ && early_stop.single())
        order_walk_.tallies.push_back({u, early_stop.unstarted()});
    return any;
}

// The graph's ordered child index is a balanced tree per vertex, built on
// first use: a match entering a fresh node (firstnodex on El Capitan: the
// node and a socket, 55 children, every match) spent 13% of its
// instructions building trees it reads once. A vertex none of whose
// out-edges was reweighted has every weight at the default, so its order
// is by descending uniq_id (then ascending edge): when the uniq_ids are
// strictly monotonic along the out-edges, that is the out-edge order or
// its reverse, and no tree is needed.
bool DfuTraverser::fresh_child_order(VertexId u, FreshOrder& order) {
    if (u < not_fresh_.size() && not_fresh_[u]) return false;
    auto refuse = [&] {
        if (not_fresh_.size() <= u) not_fresh_.resize(std::max<size_t>(graph_.num_vertices(), u + 1u), 0);
        not_fresh_[u] = 1;
        return false;
    };
    int64_t prev = 0;
    for (EdgeId e : graph_.out(u)) {
        if (order.size == FreshOrder::kMax || graph_.weight(e) != UINT64_MAX) return refuse();
        int64_t id = graph_.uniq_id(graph_.target(e));
        if (order.size == 1) order.ascending = id > prev;
        if (order.size >= 1 && (id == prev || (id > prev) != order.ascending)) return refuse();
        prev = id;
        order.edges[order.size++] = e;
    }
    if (order.ascending) std::reverse(order.edges.begin(), order.edges.begin() + order.size);
    return true;
}

bool DfuTraverser::aux_visit(VertexId v, SubsystemId s, size_t slot, const std::vector<JobResource>& list) {
    other_walk_ = true;  // not a step walk: no keep proof from its order (take_order_walk)
    if (prune(v, list, false)) return false;
    set_colour(slot, v, kGrey);
    if (v != graph_.root(s)) {
        ScoreSet fresh;
        explore_aux(v, s, slot, list, fresh);
    }
    set_colour(slot, v, kBlack);
    return avail(v) != 0;
}

bool DfuTraverser::explore_aux(VertexId u, SubsystemId s, size_t slot, const std::vector<JobResource>& list,
                               ScoreSet& scores) {
    bool any = false;
    for (EdgeId e : graph_.out(u)) {
        VertexId v = graph_.target(e);
        if (graph_.subsystem(e) != s || colour(slot, v) != kWhite) continue;
        if (!aux_visit(v, s, slot, list)) continue;
        // The egroup carries whatever avail/score the set already holds
        // (stale values, as in the reference); aux egroups are never chosen.
        EGroup group;
        group.score = scores.score;
        group.count = scores.avail;
        group.edges.push_back({scores.avail, scores.avail, false, e});
        scores.add(s, graph_.type(v), std::move(group));
        any = true;
    }
    return any;
}

void DfuTraverser::resolve(VertexId u, ScoreSet& scores, ScoreSet& parent) {
    if (scores.score <= 0) return;
    if (scores.choice_made()) {
        for (auto& sub : scores.subsystems()) enforce(sub.subsystem, scores, false);
        mark_paths_down_from(u, scores);
    } else {
        scores.merge_into(parent);
    }
}

void DfuTraverser::enforce(SubsystemId s, ScoreSet& scores, bool unconstrained) {
    for (auto& sub : scores.subsystems()) {
        if (sub.subsystem != s) continue;
        for (TypeEvals& evals : sub.types) {
            if (evals.best_k <= 0) continue;
            for (size_t i = 0; i < evals.best_i && i < evals.groups.size(); ++i) {
                const EGroup& g = evals.groups[i];
                if (g.root) continue;
                for (const EdgeEntry& entry : g.edges) {
                    mark_edge(entry.edge, entry.needs, entry.exclusive);
                    if (!unconstrained || s != dominant()) continue;
                    // Mark the shared path up to the root (§7.2); at most
                    // one step per vertex, should the in-edges form a cycle.
                    VertexId src = graph_.source(entry.edge);
                    for (size_t step = 0; step < graph_.num_vertices(); ++step) {
                        EdgeId p = graph_.parent_edge(src, s);
                        if (p == kNoEdge || graph_.marks(p).seq == seq_) break;
                        VertexId w = graph_.target(p);
                        const TypeEvals* we = scores.find(s, graph_.type(w));
                        if (we != nullptr && we->best_k == 0) mark_edge(p, graph_.size(w), false);
                        src = graph_.source(p);
                    }
                }
            }
        }
    }
}

// Deviation from the original (traversal.md §7, corner case): a choice at
// `u` marks only the edges stored in the chosen egroups. When those were
// packed below u's children (`node[1]->slot[1]->core[4]` on node -> socket
// -> core: the slots are packed at the sockets, the node chooses), the
// edges from u down to where they start are left unmarked, the update walk
// cannot reach the chosen cores and the match fails. Here every such
// in-between edge is marked too, shared (needs = the vertex's size, not
// exclusive), as the root path is in §7.2. Cost: the chosen edges' path up
// to u, each edge once per match.
void DfuTraverser::mark_paths_down_from(VertexId u, ScoreSet& scores) {
    SubsystemId s = dominant();
    for (auto& sub : scores.subsystems()) {
        if (sub.subsystem != s) continue;
        for (TypeEvals& evals : sub.types) {
            if (evals.best_k <= 0) continue;
            for (size_t i = 0; i < evals.best_i && i < evals.groups.size(); ++i) {
                if (evals.groups[i].root) continue;
                for (const EdgeEntry& entry : evals.groups[i].edges) {
                    VertexId v = graph_.source(entry.edge);
                    for (size_t step = 0; v != u && step < graph_.num_vertices(); ++step) {
                        EdgeId p = graph_.parent_edge(v, s);  // its target is v
                        if (p == kNoEdge) break;
                        if (graph_.marks(p).seq != seq_) mark_edge(p, graph_.size(v), false);
                        v = graph_.source(p);
                    }
                }
            }
        }
    }
}

void DfuTraverser::mark_edge(EdgeId e, int64_t needs, bool exclusive) {
    EdgeMarks& m = graph_.marks(e);
    if (m.seq != seq_) selected_.push_back(e);
    m.needs = needs;
    m.exclusive = exclusive;
    m.seq = seq_;
    selected_sorted_ = false;
}

// The update walk visits each selected vertex's selected children in
// out-edge order. Scanning a vertex's out-edges for the current marks
// costs its degree, sorting the selected edges costs a log factor on all
// of them (a twentieth of a replay pass that reserves thousands of cores,
// docs/replay-performance.md "Second round"). So a vertex
// whose selected edges end within a few times their number of its first
// out-edges (a node's cores) is scanned; only the rest (a root choosing a
// few of thousands of nodes) is sorted, by (source, out-position) keys.
void DfuTraverser::sort_selected() {
    if (selected_sorted_) return;
    ++sort_round_;
    if (selected_at_.size() < graph_.num_vertices()) selected_at_.resize(graph_.num_vertices());
    // A chosen node's cores are marked one after another: the entry of
    // the previous edge's source is looked up once for all of them.
    VertexId prev = kNoVertex;
    SelectedAt* at = nullptr;
    for (EdgeId e : selected_) {
        if (VertexId u = graph_.source(e); u != prev) {
            prev = u;
            at = &selected_at_[u];
            if (at->round != sort_round_) *at = {sort_round_, 0, 0};
        }
        ++at->count;
        at->last = std::max(at->last, graph_.out_position(e));
    }
    std::vector<std::pair<uint64_t, EdgeId>>& keyed = sort_scratch_;
    keyed.clear();
    prev = kNoVertex;
    bool scanned = true;
    for (EdgeId e : selected_) {
        VertexId u = graph_.source(e);
        if (u != prev) prev = u, scanned = scans_selected(u);
        if (!scanned) keyed.emplace_back(uint64_t{u} << 32 | static_cast<uint32_t>(graph_.out_position(e)), e);
    }
    std::sort(keyed.begin(), keyed.end());
    wide_selected_.resize(keyed.size());
    for (size_t i = 0; i < keyed.size(); ++i) wide_selected_[i] = keyed[i].second;
    selected_sorted_ = true;
}

uint32_t DfuTraverser::selected_count(VertexId u) const {
    if (u >= selected_at_.size() || selected_at_[u].round != sort_round_) return 0;
    return selected_at_[u].count;
}

bool DfuTraverser::scans_selected(VertexId u) const {
    uint32_t n = selected_count(u);
    return n == 0 || uint64_t{selected_at_[u].last} + 1 <= 4 * uint64_t{n} + 8;
}

std::pair<const EdgeId*, const EdgeId*> DfuTraverser::selected_children(VertexId u) const {
    auto first = std::lower_bound(wide_selected_.begin(), wide_selected_.end(), u,
                                  [this](EdgeId e, VertexId v) { return graph_.source(e) < v; });
    auto last = std::upper_bound(first, wide_selected_.end(), u,
                                 [this](VertexId v, EdgeId e) { return v < graph_.source(e); });
    return {wide_selected_.data() + (first - wide_selected_.begin()),
            wide_selected_.data() + (last - wide_selected_.begin())};
}

bool DfuTraverser::resolve_graph(VertexId root, const std::vector<JobResource>& resources, ScoreSet& outer,
                                 int64_t& root_needs) {
    PolicyContext ctx{graph_, dominant()};
    if (!policy_.finish_graph(ctx, resources, outer)) return false;
    root_needs = 1;
    for (const JobResource& r : resources) {
        if (r.type != graph_.type(root)) continue;
        root_needs = calc_count(r, clamp_to_u32(outer.avail));
        if (root_needs == 0) return false;
    }
    for (auto& sub : outer.subsystems())
        for (auto& evals : sub.types)
            if (evals.qualified <= 0) return false;
    for (size_t slot = 0; slot < subsystems_.size(); ++slot) enforce(subsystems_[slot], outer, true);
    return true;
}

}  // namespace rq
