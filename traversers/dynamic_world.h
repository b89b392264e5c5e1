// Test support for the randomized dynamic-resources test
// (dynamic_random_test.cc): machines described as JGF (so that vertices
// carry ranks and `attach` documents can be built the same way), a matcher
// "world", a writer that keeps both R forms a job can be replayed from, and
// the pool invariants checked after every step.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "policies/match_policy.h"
#include "resource/loader.h"
#include "resource/writer_jgf.h"
#include "resource/writer_rv1.h"
#include "traversers/dfu.h"

namespace rq::testing {

using Json = nlohmann::ordered_json;

inline std::string str(int64_t n) { return std::to_string(n); }

// Builds JGF documents: whole machines for start-up, subgraphs to attach,
// subsets of a job's R for partial cancels.
class JgfBuilder {
public:
    // Adds a vertex; returns its JGF id (its uniq_id as text).
    std::string vertex(const std::string& type, int64_t id, int64_t uniq, int64_t rank, int64_t size,
                       const std::string& path) {
        Json metadata = Json::object();
        metadata["type"] = type;
        metadata["basename"] = type;
        metadata["name"] = type + str(id);
        metadata["id"] = id;
        metadata["uniq_id"] = uniq;
        metadata["rank"] = rank;
        metadata["size"] = size;
        metadata["paths"] = Json{{"containment", path}};
        nodes_.push_back(Json{{"id", str(uniq)}, {"metadata", metadata}});
        return str(uniq);
    }
    // An existing vertex of `graph`, described so that a read reuses it.
    std::string existing(const ResourceGraph& graph, VertexId v) {
        return vertex(graph.type_name(v), graph.id(v), graph.uniq_id(v), graph.rank(v), graph.size(v),
                      std::string(graph.path(v, kContainment)));
    }
    void edge(const std::string& source, const std::string& target) {
        edges_.push_back(Json{{"source", source}, {"target", target}});
    }
    void raw_vertex(const Json& element) { nodes_.push_back(element); }
    size_t vertex_count() const { return nodes_.size(); }
    std::string text() const { return Json{{"graph", Json{{"nodes", nodes_}, {"edges", edges_}}}}.dump(); }

private:
    Json nodes_ = Json::array();
    Json edges_ = Json::array();
};

// Adds node<id> of rank `rank` below the JGF vertex `parent` at
// `parent_path`: `sockets` sockets of 3 cores and 1 gpu, or (sockets == 0,
// the layout rv1exec R describes) 4 cores and 2 gpus right below the node.
inline void add_node(JgfBuilder& doc, int64_t& uniq, const std::string& parent, const std::string& parent_path,
                     int64_t id, int64_t rank, int sockets) {
    const std::string path = parent_path + "/node" + str(id);
    const std::string node = doc.vertex("node", id, uniq++, rank, 1, path);
    doc.edge(parent, node);
    auto leaves = [&](const std::string& under, const std::string& under_path, int64_t first, int cores, int gpus) {
        for (int c = 0; c < cores; ++c)
            doc.edge(under, doc.vertex("core", first * cores + c, uniq++, rank, 1, under_path + "/core" +
                                                                                       str(first * cores + c)));
        for (int g = 0; g < gpus; ++g)
            doc.edge(under,
                     doc.vertex("gpu", first * gpus + g, uniq++, rank, 1, under_path + "/gpu" + str(first * gpus + g)));
    };
    if (sockets == 0) {
        leaves(node, path, 0, 4, 2);
        return;
    }
    for (int s = 0; s < sockets; ++s) {
        const std::string socket_path = path + "/socket" + str(s);
        const std::string socket = doc.vertex("socket", s, uniq++, rank, 1, socket_path);
        doc.edge(node, socket);
        leaves(socket, socket_path, s, 3, 1);
    }
}

// cluster0 -> [rack<r> ->] node<n> (rank n) -> ...; racks == 0 puts the
// nodes right below the cluster with the flat rv1exec layout.
inline std::string machine_jgf(int racks, int nodes_per_rack) {
    JgfBuilder doc;
    int64_t uniq = 0;
    const std::string root = doc.vertex("cluster", 0, uniq++, -1, 1, "/cluster0");
    if (racks == 0) {
        for (int n = 0; n < nodes_per_rack; ++n) add_node(doc, uniq, root, "/cluster0", n, n, 0);
        return doc.text();
    }
    for (int r = 0; r < racks; ++r) {
        const std::string rack_path = "/cluster0/rack" + str(r);
        const std::string rack = doc.vertex("rack", r, uniq++, -1, 1, rack_path);
        doc.edge(root, rack);
        for (int n = 0; n < nodes_per_rack; ++n) {
            int64_t id = r * nodes_per_rack + n;
            add_node(doc, uniq, rack, rack_path, id, id, 2);
        }
    }
    return doc.text();
}

struct World {
    ResourceGraph graph;
    ScheduleStore store;
    std::unique_ptr<MatchPolicy> policy;
    std::unique_ptr<DfuTraverser> traverser;
};

inline std::unique_ptr<World> make_world(const std::string& jgf, const std::string& policy_name) {
    auto w = std::make_unique<World>();
    LoadRequest request;
    request.format = "jgf";
    request.path = "machine.json";
    request.text = jgf;
    Status loaded = load_graph(request, w->graph);
    EXPECT_TRUE(loaded.ok()) << loaded.message();
    auto policy = make_policy(policy_name);
    EXPECT_TRUE(policy.ok());
    if (!loaded.ok() || !policy.ok()) return nullptr;
    w->policy = std::move(*policy);
    TraverserConfig config;
    config.subsystems = {kContainment};
    auto t = DfuTraverser::create(w->graph, w->store, *w->policy, config);
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.message());
    if (!t.ok()) return nullptr;
    w->traverser = std::move(*t);
    return w;
}

// Keeps a job's output in both R forms that `update` and `partial-cancel`
// read back: JGF and rv1exec (rv1_nosched).
class RCapture : public MatchWriter {
public:
    void vertex(const ResourceGraph& g, const VertexEmission& v) override {
        jgf_.vertex(g, v);
        rv1_.vertex(g, v);
    }
    void edge(const ResourceGraph& g, EdgeId e, bool parent_exclusive) override {
        jgf_.edge(g, e, parent_exclusive);
        rv1_.edge(g, e, parent_exclusive);
    }
    void time(int64_t start, int64_t end) override { rv1_.time(start, end); }
    Status flush(std::ostream& out) override { return jgf_.flush(out); }
    void reset() override {
        jgf_.reset();
        rv1_.reset();
    }
    // Both texts, then a reset.
    std::pair<std::string, std::string> take() {
        auto doc = jgf_.document();
        std::string jgf = doc.ok() ? *doc : std::string();
        std::ostringstream rv1;
        (void)rv1_.flush(rv1);
        reset();
        return {jgf, rv1.str()};
    }

private:
    JgfWriter jgf_{false};
    Rv1Writer rv1_{Rv1Writer::Scheduling::kNone};
};

// The store's describe() without records that hold nothing: a vertex that
// was scheduled once and released keeps an empty record a fresh one lacks.
inline std::string without_empty_records(const std::string& describe) {
    static const std::regex idle(R"(v\d+ plan\(total (-?\d+): 0=\1\) x\(total (\d+): 0=\2\))");
    std::istringstream in(describe);
    std::string out;
    for (std::string line; std::getline(in, line);)
        if (!std::regex_match(line, idle)) out += line + "\n";
    return out;
}

// The vertices reachable from the dominant root, depth first.
inline std::vector<VertexId> reachable_vertices(const ResourceGraph& g) {
    std::vector<VertexId> order;
    std::vector<VertexId> stack{g.root(kContainment)};
    while (!stack.empty()) {
        VertexId u = stack.back();
        stack.pop_back();
        order.push_back(u);
        for (EdgeId e : g.out(u))
            if (g.subsystem(e) == kContainment) stack.push_back(g.target(e));
    }
    return order;
}

// Units of `v`'s own pool in use at time t, recounted from the spans the
// record lists (not from the planner's own bookkeeping).
inline int64_t used_at(const VertexSchedule& r, Time t) {
    int64_t used = 0;
    for (auto* spans : {&r.allocations, &r.reservations})
        for (auto& [job, id] : *spans)
            if (const Span* s = r.plan.span(id); s != nullptr && s->start <= t && t < s->end) used += s->amount;
    return used;
}

// "" when every pool of the reachable graph is consistent, else what is
// wrong:
//  * own pools: the planner holds exactly the spans the record lists, the
//    spans never add up beyond the vertex size, and the planner's
//    availability equals the recount at every span start;
//  * exclusivity checkers: one span per listed job, nothing else.
// Subtree plans are not range-checked: after `remove` shrinks totals under
// live spans they follow the reference's clamped "resized" model
// (planner_resized.h), and after a future rv1exec `update` they can count
// fewer units than the pools below; both are still to be compared with the
// reference. The cancel-all checkpoints do cover them.
inline std::string check_pools(const World& w) {
    const ResourceGraph& g = w.graph;
    std::ostringstream problem;
    auto name = [&](VertexId v) { return std::string(g.name(v)) + "(v" + str(v) + ")"; };
    for (VertexId v : reachable_vertices(g)) {
        const VertexSchedule* r = w.store.find(v);
        if (r == nullptr) continue;
        size_t listed = r->allocations.size() + r->reservations.size();
        if (r->plan.span_count() != listed)
            problem << name(v) << ": planner has " << r->plan.span_count() << " spans, record lists " << listed << "\n";
        if (r->x_checker().span_count() != r->x_spans().size())
            problem << name(v) << ": checker has " << r->x_checker().span_count() << " spans, record lists "
                    << r->x_spans().size() << "\n";
        for (auto* spans : {&r->allocations, &r->reservations})
            for (auto& [job, id] : *spans) {
                const Span* s = r->plan.span(id);
                if (s == nullptr) {
                    problem << name(v) << ": job " << job << " lists unknown span " << id << "\n";
                    continue;
                }
                int64_t used = used_at(*r, s->start);
                if (used > g.size(v))
                    problem << name(v) << ": over-allocated at " << s->start << ": " << used << " > " << g.size(v)
                            << "\n";
                if (r->plan.avail_at(s->start) != g.size(v) - used)
                    problem << name(v) << ": planner says " << r->plan.avail_at(s->start) << " free at " << s->start
                            << ", spans leave " << g.size(v) - used << "\n";
            }
    }
    return problem.str();
}

}  // namespace rq::testing
