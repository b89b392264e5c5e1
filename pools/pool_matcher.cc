#include "pools/pool_matcher.h"

#include <algorithm>
#include <functional>
#include <map>
#include <unordered_map>

#include "resource/planner.h"

namespace rq::pools {

struct PoolMatcher::WorkerView {
    struct Group {
        VertexId vertex = kNoVertex;  // kNoVertex: items directly under the worker
        std::vector<VertexId> items;
    };
    struct TypePool {
        TypeId type = kNoId;
        std::vector<Group> groups;
    };
    std::vector<TypePool> pools;
    const TypePool* find(TypeId t) const {
        for (auto& p : pools)
            if (p.type == t) return &p;
        return nullptr;
    }
};

PoolMatcher::PoolMatcher(ResourceGraph& graph, ScheduleStore& store, const PruneSpec& spec)
    : graph_(graph), store_(store), spec_(spec) {}
PoolMatcher::~PoolMatcher() = default;

void PoolMatcher::refresh() {
    if (!workers_.empty() && seen_vertices_ == graph_.num_vertices() && seen_edges_ == graph_.num_edges()) return;
    workers_.clear();
    for (VertexId v : graph_.by_type(types::kNode))
        if (!graph_.is_removed(v)) workers_.push_back(v);
    if (workers_.empty() && graph_.has_root(kContainment)) workers_.push_back(graph_.root(kContainment));
    views_.clear();
    views_.resize(workers_.size());
    seen_vertices_ = graph_.num_vertices();
    seen_edges_ = graph_.num_edges();
}

const std::vector<VertexId>& PoolMatcher::workers() {
    refresh();
    return workers_;
}

const PoolMatcher::WorkerView& PoolMatcher::view(size_t w) {
    if (views_[w]) return *views_[w];
    auto view = std::make_unique<WorkerView>();
    VertexId worker = workers_[w];
    std::vector<std::pair<VertexId, VertexId>> stack;  // (vertex, parent)
    for (EdgeId e : graph_.out(worker))
        if (graph_.subsystem(e) == kContainment) stack.push_back({graph_.target(e), worker});
    std::reverse(stack.begin(), stack.end());
    std::map<std::pair<TypeId, VertexId>, size_t> where;  // (type, group vertex) -> group slot
    while (!stack.empty()) {
        auto [v, parent] = stack.back();
        stack.pop_back();
        if (graph_.type(v) == types::kNode) continue;  // a nested worker is its own
        TypeId t = graph_.type(v);
        VertexId group = parent == worker ? kNoVertex : parent;
        auto* pool = const_cast<WorkerView::TypePool*>(view->find(t));
        if (pool == nullptr) {
            view->pools.push_back({t, {}});
            pool = &view->pools.back();
        }
        auto key = std::make_pair(t, group);
        auto it = where.find(key);
        if (it == where.end()) {
            it = where.emplace(key, pool->groups.size()).first;
            pool->groups.push_back({group, {}});
        }
        pool->groups[it->second].items.push_back(v);
        size_t mark = stack.size();
        for (EdgeId e : graph_.out(v))
            if (graph_.subsystem(e) == kContainment) stack.push_back({graph_.target(e), v});
        std::reverse(stack.begin() + long(mark), stack.end());
    }
    views_[w] = std::move(view);
    return *views_[w];
}

TypeId PoolMatcher::resolve(const std::string& name) const {
    TypeId t = graph_.types().find(name);
    if (t != kNoId && !graph_.by_type(t).empty()) return t;
    static const std::map<std::string, std::vector<std::string>> aliases = {
        {"cpus", {"core", "cpu"}}, {"cpu", {"core", "cpus"}},   {"gpus", {"gpu"}},
        {"gpu", {"gpus"}},         {"mem", {"memory"}},         {"memory", {"mem"}},
        {"gpus/nvidia", {"gpu"}},  {"gpus/amd", {"gpu"}},
    };
    if (auto a = aliases.find(name); a != aliases.end())
        for (auto& other : a->second) {
            TypeId o = graph_.types().find(other);
            if (o != kNoId && !graph_.by_type(o).empty()) return o;
        }
    return t;  // known but empty (canary's `fpgas: 0`), or kNoId
}

int64_t PoolMatcher::free_units(VertexId v, int64_t at, int64_t duration, bool idle) const {
    if (idle) return graph_.size(v);
    if (!graph_.is_up(v)) return 0;
    return std::max<int64_t>(0, store_.avail(v, graph_.size(v), at, duration));
}

bool PoolMatcher::whole(VertexId v, int64_t at, int64_t duration, bool idle) const {
    return v == kNoVertex || free_units(v, at, duration, idle) == graph_.size(v);
}

std::optional<Allocation> PoolMatcher::fit(size_t w, const Request& request, int64_t at, int64_t duration, bool idle) {
    VertexId worker = workers_[w];
    if (!whole(worker, at, duration, idle)) return std::nullopt;
    if (!idle && !may_fit(worker, request, at, duration)) return std::nullopt;
    const WorkerView& v = view(w);
    Allocation a;
    a.worker = worker;
    a.at = at;
    for (const PoolRequest& r : request.pools) {
        TypeId type = resolve(r.name);
        if (!r.all && r.amount == 0) continue;  // canary's "0 of a type it has"
        const WorkerView::TypePool* pool = v.find(type);
        if (pool == nullptr) return std::nullopt;
        PoolTake take{r.name, type, r.all, r.strategy, {}};
        std::vector<int64_t> free, capacity;
        for (auto& g : pool->groups) {
            int64_t f = 0, c = 0;
            bool open = whole(g.vertex, at, duration, idle);
            for (VertexId item : g.items) {
                c += graph_.size(item);
                if (open) f += free_units(item, at, duration, idle);
            }
            free.push_back(f);
            capacity.push_back(c);
        }
        if (r.all) {
            for (size_t g = 0; g < pool->groups.size(); ++g) {
                if (free[g] != capacity[g]) return std::nullopt;
                for (VertexId item : pool->groups[g].items) take.items.push_back({item, graph_.size(item)});
            }
            if (take.items.empty()) return std::nullopt;
        } else {
            auto amounts = choose_groups(r.strategy, r.amount, free, capacity);
            if (!amounts) return std::nullopt;
            for (size_t g = 0; g < pool->groups.size(); ++g) {
                int64_t left = (*amounts)[g];
                for (VertexId item : pool->groups[g].items) {
                    if (left == 0) break;
                    int64_t n = std::min(left, free_units(item, at, duration, idle));
                    if (n > 0) take.items.push_back({item, n}), left -= n;
                }
            }
        }
        a.pools.push_back(std::move(take));
    }
    if (!request.groups.empty() && !fit_ctest(v, request, at, duration, idle, a)) return std::nullopt;
    return a;
}

// The worker's subtree plan, where it tracks a requested type, rules the
// worker out in O(log) when the type's free total is short.
bool PoolMatcher::may_fit(VertexId worker, const Request& request, int64_t at, int64_t duration) const {
    const SubtreePlan* plan = store_.subtree(worker, 0);
    if (plan == nullptr) return true;
    for (const PoolRequest& r : request.pools) {
        int64_t i = plan->plan.index_of(resolve(r.name));
        if (i < 0) continue;
        const Planner& p = plan->plan.planner(size_t(i));
        auto free = p.avail_during(at, duration);
        if (!free) continue;
        if (*free < (r.all ? p.total() : r.amount)) return false;
    }
    return true;
}

// CTest's bin packing: every requirement on one instance, the largest
// requirements first, backtracking when an instance choice leaves a later
// requirement without room (bounded effort; beyond it the worker is
// treated as not fitting).
bool PoolMatcher::fit_ctest(const WorkerView& v, const Request& request, int64_t at, int64_t duration, bool idle,
                            Allocation& a) {
    struct Need {
        size_t group, index;
        int64_t slots;
        std::vector<VertexId> candidates;
    };
    std::vector<Need> needs;
    std::unordered_map<VertexId, int64_t> room;
    for (size_t g = 0; g < request.groups.size(); ++g) {
        for (size_t i = 0; i < request.groups[g].size(); ++i) {
            const CtestRequirement& r = request.groups[g][i];
            const WorkerView::TypePool* pool = v.find(resolve(r.type));
            if (pool == nullptr) return false;
            Need n{g, i, r.slots, {}};
            for (auto& grp : pool->groups) {
                if (!whole(grp.vertex, at, duration, idle)) continue;
                for (VertexId item : grp.items) {
                    if (!room.count(item)) room[item] = free_units(item, at, duration, idle);
                    if (room[item] >= r.slots) n.candidates.push_back(item);
                }
            }
            if (n.candidates.empty()) return false;
            needs.push_back(std::move(n));
        }
    }
    std::stable_sort(needs.begin(), needs.end(), [](const Need& x, const Need& y) { return x.slots > y.slots; });
    std::vector<VertexId> chosen(needs.size(), kNoVertex);
    int64_t effort = 100000;
    std::function<bool(size_t)> place = [&](size_t k) {
        if (k == needs.size()) return true;
        for (VertexId item : needs[k].candidates) {
            if (--effort < 0) return false;
            if (room[item] < needs[k].slots) continue;
            room[item] -= needs[k].slots;
            chosen[k] = item;
            if (place(k + 1)) return true;
            room[item] += needs[k].slots;
        }
        return false;
    };
    if (!place(0)) return false;
    a.ctest_groups.assign(request.groups.size(), {});
    for (size_t g = 0; g < request.groups.size(); ++g) a.ctest_groups[g].resize(request.groups[g].size());
    for (size_t k = 0; k < needs.size(); ++k) a.ctest_groups[needs[k].group][needs[k].index] = {chosen[k], needs[k].slots};
    return true;
}

std::vector<int64_t> PoolMatcher::candidate_times(size_t w, const Request& request) {
    std::vector<int64_t> times;
    auto add = [&](VertexId v) {
        if (v == kNoVertex) return;
        if (const VertexSchedule* rec = store_.find(v))
            for (Time t : rec->plan.points()) times.push_back(t);
    };
    add(workers_[w]);
    const WorkerView& v = view(w);
    auto add_type = [&](TypeId t) {
        if (const WorkerView::TypePool* pool = v.find(t))
            for (auto& g : pool->groups) {
                add(g.vertex);
                for (VertexId item : g.items) add(item);
            }
    };
    for (auto& r : request.pools) add_type(resolve(r.name));
    for (auto& group : request.groups)
        for (auto& r : group) add_type(resolve(r.type));
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    return times;
}

Result<Allocation> PoolMatcher::find(const Request& original, PoolOp op, int64_t duration, int64_t now) {
    refresh();
    Request request = original;
    // canary's requests, and HyperQueue's as `hq submit` builds them: a
    // request naming no cpus asks for 1 cpu, compact (canary
    // src/_canary/jobspec.py:277, HyperQueue
    // crates/hyperqueue/src/client/commands/submit/command.rs:522-542).
    if (!request.ctest()) {
        bool named = std::any_of(request.pools.begin(), request.pools.end(),
                                 [](const PoolRequest& r) { return r.name == "cpus"; });
        if (!named && resolve("cpus") != kNoId) request.pools.push_back({"cpus", 1, false, Strategy::kCompact});
    }
    for (auto& r : request.pools)
        if (resolve(r.name) == kNoId)
            return make_error(Errc::kUnsatisfiable, "no worker has a pool named " + r.name);
    for (auto& g : request.groups)
        for (auto& r : g)
            if (resolve(r.type) == kNoId)
                return make_error(Errc::kUnsatisfiable, "no worker has a resource type " + r.type);
    bool satisfiable = false;
    for (size_t w = 0; w < workers_.size() && !satisfiable; ++w) {
        if (op != PoolOp::kSatisfiability) {
            if (auto a = fit(w, request, now, duration, false)) return *a;
            continue;
        }
        if (auto a = fit(w, request, 0, duration, true)) return *a;
    }
    for (size_t w = 0; w < workers_.size() && !satisfiable; ++w)
        satisfiable = fit(w, request, 0, duration, true).has_value();
    if (!satisfiable) return make_error(Errc::kUnsatisfiable, "no worker can ever hold the request");
    if (op != PoolOp::kAllocateOrElseReserve) return make_error(Errc::kBusy, "no worker can hold the request now");
    std::optional<Allocation> best;
    for (size_t w = 0; w < workers_.size(); ++w) {
        for (int64_t t : candidate_times(w, request)) {
            if (t <= now || t > kPlannerEnd - duration) continue;
            if (best && t >= best->at) break;
            if (auto a = fit(w, request, t, duration, false)) {
                best = std::move(a);
                break;
            }
        }
    }
    if (!best) return make_error(Errc::kBusy, "no worker can hold the request before the end of time");
    return *best;
}

namespace {

// Total amount per item (a CTest item can serve several groups).
std::map<VertexId, int64_t> merged_items(const Allocation& a) {
    std::map<VertexId, int64_t> out;
    for (auto& p : a.pools)
        for (auto& i : p.items) out[i.item] += i.amount;
    for (auto& g : a.ctest_groups)
        for (auto& i : g) out[i.item] += i.amount;
    return out;
}

}  // namespace

Status PoolMatcher::record(const Allocation& a, JobId jobid, int64_t duration, int64_t now) {
    std::map<VertexId, int64_t> items = merged_items(a);
    for (auto& [item, amount] : items)
        if (!store_.get(item, graph_.size(item)).plan.fits(a.at, duration, amount))
            return make_error(Errc::kBusy, "pool item " + std::string(graph_.name(item)) + " is no longer free");
    // The items, then every ancestor with the tracked amounts below it.
    std::map<VertexId, TypeCounts> below;
    for (auto& [item, amount] : items) {
        VertexSchedule& rec = store_.get(item, graph_.size(item));
        auto span = rec.plan.add_span(a.at, duration, amount);
        if (span.ok()) (a.at == now ? rec.allocations : rec.reservations)[jobid] = *span;
        below[item];
        for (VertexId v = item;;) {
            EdgeId e = graph_.parent_edge(v, kContainment);
            if (e == kNoEdge) break;
            v = graph_.source(e);
            add_if_tracked(spec_, below[v], graph_.type(item), amount);
        }
    }
    for (auto& [v, counts] : below) {
        VertexSchedule& rec = store_.get(v, graph_.size(v));
        rec.tags.insert(jobid);
        rec.add_x_span(jobid, a.at, duration);
        SubtreePlan* plan = store_.subtree(v, 0);
        if (plan == nullptr || counts.empty()) continue;
        std::vector<int64_t> amounts;
        for (size_t i = 0; i < plan->plan.size(); ++i) amounts.push_back(counts.get(plan->plan.type(i)));
        auto m = plan->plan.add_span(a.at, duration, amounts);
        if (m.ok()) plan->job2span[jobid] = *m;
    }
    return ok_status();
}

Status PoolMatcher::release(const Allocation& a, JobId jobid) {
    bool ok = true;
    std::map<VertexId, bool> done;
    for (auto& [item, amount] : merged_items(a)) {
        for (VertexId v = item; v != kNoVertex && !done[v];) {
            done[v] = true;
            (void)store_.release_tagged(v, jobid, ok);  // every item and ancestor was tagged (record())
            EdgeId e = graph_.parent_edge(v, kContainment);
            v = e == kNoEdge ? kNoVertex : graph_.source(e);
        }
    }
    return ok ? ok_status() : make_error(Errc::kInvalid, "error removing the spans of job " + std::to_string(jobid));
}

void PoolMatcher::emit(const Allocation& a, MatchWriter& writer, int64_t duration) const {
    std::map<VertexId, int64_t> items = merged_items(a);
    std::map<VertexId, std::vector<std::pair<uint32_t, EdgeId>>> children;
    std::map<VertexId, bool> seen;
    VertexId root = kNoVertex;
    for (auto& [item, amount] : items) {
        for (VertexId v = item;;) {
            if (seen[v]) break;
            seen[v] = true;
            EdgeId e = graph_.parent_edge(v, kContainment);
            if (e == kNoEdge) {
                root = v;
                break;
            }
            children[graph_.source(e)].push_back({graph_.out_position(e), e});
            v = graph_.source(e);
        }
    }
    for (auto& [v, list] : children) std::sort(list.begin(), list.end());
    std::function<void(VertexId, int)> walk = [&](VertexId u, int level) {
        if (auto it = children.find(u); it != children.end())
            for (auto& [pos, e] : it->second) {
                walk(graph_.target(e), level + 1);
                writer.edge(graph_, e, false);
            }
        VertexEmission em;
        em.vertex = u;
        auto item = items.find(u);
        em.needs = item != items.end() ? item->second : 1;
        em.exclusive = item != items.end();
        em.level = level;
        writer.vertex(graph_, em);
    };
    if (root != kNoVertex) walk(root, 1);
    writer.time(a.at, a.at + duration);
}

}  // namespace rq::pools
