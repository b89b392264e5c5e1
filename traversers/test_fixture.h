// A small matcher for traverser and policy unit tests: a GRUG recipe built
// from a compact description, a policy, the traverser, and a simple writer.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>

#include "policies/match_policy.h"
#include "resource/grug.h"
#include "resource/jobspec.h"
#include "resource/writer_simple.h"
#include "traversers/dfu.h"

namespace rq::testing {

// cluster "c" -> rack[racks] -> node[nodes] -> socket[sockets] -> core[cores]
// (+ gpu[gpus] per socket), with the reference's id scopes.
inline std::string machine_recipe(int racks, int nodes, int sockets, int cores, int gpus = 0) {
    auto key = [](const char* id, const char* f, const char* type, const char* dflt) {
        std::string k = std::string("<key id=\"") + id + "\" for=\"" + f + "\" attr.name=\"" + id +
                        "\" attr.type=\"" + type + "\"";
        return dflt ? k + "><default>" + dflt + "</default></key>\n" : k + "/>\n";
    };
    std::string x = "<graphml>\n";
    x += key("root", "node", "int", "0") + key("type", "node", "string", nullptr) +
         key("basename", "node", "string", nullptr) + key("size", "node", "long", "1") +
         key("subsystem", "node", "string", "containment") + key("e_subsystem", "edge", "string", "containment") +
         key("id_scope", "edge", "int", "0") + key("id_start", "edge", "int", "0") +
         key("id_stride", "edge", "int", "1") + key("gen_method", "edge", "string", "MULTIPLY") +
         key("multi_scale", "edge", "int", "1");
    x += "<graph>\n";
    auto node = [](const char* t, const char* base, bool root = false) {
        return std::string("<node id=\"") + t + "\">" + (root ? "<data key=\"root\">1</data>" : "") +
               "<data key=\"type\">" + t + "</data><data key=\"basename\">" + base + "</data></node>\n";
    };
    auto edge = [](const char* s, const char* t, int n, int scope) {
        return std::string("<edge source=\"") + s + "\" target=\"" + t + "\"><data key=\"multi_scale\">" +
               std::to_string(n) + "</data><data key=\"id_scope\">" + std::to_string(scope) + "</data></edge>\n";
    };
    x += node("cluster", "c", true) + node("rack", "rack") + node("node", "node") + node("socket", "socket") +
         node("core", "core") + node("gpu", "gpu");
    x += edge("cluster", "rack", racks, 0) + edge("rack", "node", nodes, 1) + edge("node", "socket", sockets, 0) +
         edge("socket", "core", cores, 1);
    if (gpus > 0) x += edge("socket", "gpu", gpus, 1);
    x += "</graph>\n</graphml>\n";
    return x;
}

// A jobspec with the given resources block (YAML, indented by 2) and
// duration.
inline std::string jobspec_yaml(const std::string& resources, int duration = 3600) {
    return "version: 1\nresources:\n" + resources +
           "tasks:\n  - command: [app]\n    slot: s\n    count: {per_slot: 1}\n"
           "attributes:\n  system:\n    duration: " +
           std::to_string(duration) + "\n";
}

// slot[1] -> core[n] (prefix omitted)
inline std::string cores(int n, int duration = 3600) {
    return jobspec_yaml("  - type: slot\n    count: 1\n    label: s\n    with:\n      - type: core\n        count: " +
                            std::to_string(n) + "\n",
                        duration);
}

// node[1] -> slot[1] -> socket[1] -> core[n]
// `n` slots of one core each (a replay's job of n cores).
inline std::string slot_cores(int n, int duration = 3600) {
    return jobspec_yaml("  - type: slot\n    count: " + std::to_string(n) +
                            "\n    label: s\n    with:\n      - type: core\n        count: 1\n",
                        duration);
}

inline std::string node_cores(int n, int duration = 3600) {
    return jobspec_yaml("  - type: node\n    count: 1\n    with:\n      - type: slot\n        count: 1\n"
                        "        label: s\n        with:\n          - type: socket\n            count: 1\n"
                        "            with:\n              - type: core\n                count: " +
                            std::to_string(n) + "\n",
                        duration);
}

struct Matcher {
    ResourceGraph graph;
    ScheduleStore store;
    std::unique_ptr<MatchPolicy> policy;
    std::unique_ptr<DfuTraverser> traverser;
    SimpleWriter writer{false};
    JobId next = 1;

    Matcher(const std::string& recipe_xml, const std::string& policy_name,
            const std::string& prune = "ALL:core,ALL:node", bool exhaustive_select = false) {
        auto recipe = parse_grug(recipe_xml, "test");
        EXPECT_TRUE(recipe.ok());
        EXPECT_TRUE(load_grug(*recipe, graph).ok());
        graph.types().freeze();
        auto p = make_policy(policy_name);
        EXPECT_TRUE(p.ok());
        policy = std::move(*p);
        TraverserConfig config;
        config.subsystems = {kContainment};
        config.prune_filters = prune;
        config.exhaustive_select = exhaustive_select;
        auto t = DfuTraverser::create(graph, store, *policy, config);
        EXPECT_TRUE(t.ok());
        traverser = std::move(*t);
    }

    // Runs a match; returns the simple-format text, or "" with `code` set.
    std::string match(const std::string& jobspec_text, MatchOp op = MatchOp::kAllocate, MatchResult* out = nullptr) {
        auto js = parse_jobspec(jobspec_text, graph.types());
        EXPECT_TRUE(js.ok()) << (js.ok() ? "" : js.message());
        if (!js.ok()) return "";
        MatchResult r = traverser->run(*js, op, next, writer);
        if (out) *out = r;
        if (r.ok() && op != MatchOp::kSatisfiability && op != MatchOp::kWithoutAllocating &&
            op != MatchOp::kWithoutAllocatingFuture)
            ++next;
        std::ostringstream text;
        (void)writer.flush(text);
        return text.str();
    }

    // Every record and subtree plan holds nothing: no span, job table entry
    // or tag (the records a match created stay, empty).
    void expect_nothing_held() const {
        for (VertexId v = 0; v < graph.num_vertices(); ++v) {
            if (const VertexSchedule* r = store.find(v)) {
                EXPECT_EQ(r->plan.span_count(), 0u) << graph.name(v);
                EXPECT_EQ(r->x_checker().span_count(), 0u) << graph.name(v);
                EXPECT_TRUE(r->x_spans().empty()) << graph.name(v);
                EXPECT_TRUE(r->tags.empty()) << graph.name(v);
                EXPECT_TRUE(r->allocations.empty()) << graph.name(v);
                EXPECT_TRUE(r->reservations.empty()) << graph.name(v);
            }
            if (const SubtreePlan* p = store.subtree(v, 0)) {
                EXPECT_EQ(p->plan.span_count(), 0u) << graph.name(v);
                EXPECT_TRUE(p->job2span.empty()) << graph.name(v);
            }
        }
    }

    // The names of the exclusively allocated vertices of the last output.
    static std::vector<std::string> exclusive_names(const std::string& text) {
        std::vector<std::string> names;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);) {
            auto dash = line.find_last_of('-');
            auto bracket = line.find('[');
            if (line.find(":x]") == std::string::npos) continue;
            names.push_back(line.substr(dash + 1, bracket - dash - 1));
        }
        return names;
    }
};

// One step of a differential run of two matchers given the same work (a
// traverser with a replay's shortcut on, one without): one time in four a
// live job is cancelled on both; otherwise `next_request()` is matched on
// both, allocating or else reserving at random, and both must print the
// same match at the same time. False once a match differed (reported).
inline bool differential_step(std::mt19937_64& rng, Matcher& a, Matcher& b, std::vector<JobId>& live,
                              const std::function<std::string()>& next_request, const std::string& what) {
    if (!live.empty() && std::uniform_int_distribution<int>(0, 3)(rng) == 0) {
        size_t i = std::uniform_int_distribution<size_t>(0, live.size() - 1)(rng);
        EXPECT_TRUE(a.traverser->cancel(live[i]).ok()) << what;
        EXPECT_TRUE(b.traverser->cancel(live[i]).ok()) << what;
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
        return true;
    }
    std::string request = next_request();
    MatchOp op = std::uniform_int_distribution<int>(0, 1)(rng) ? MatchOp::kAllocateOrElseReserve : MatchOp::kAllocate;
    JobId id = a.next;
    MatchResult ra, rb;
    std::string out_a = a.match(request, op, &ra);
    std::string out_b = b.match(request, op, &rb);
    EXPECT_EQ(out_a, out_b) << what << "\n" << request;
    EXPECT_EQ(ra.code, rb.code) << what;
    EXPECT_EQ(ra.at, rb.at) << what;
    if (ra.ok()) live.push_back(id);
    return out_a == out_b && ra.code == rb.code && ra.at == rb.at;
}

}  // namespace rq::testing
