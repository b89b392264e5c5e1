#include "traversers/find.h"

#include <gtest/gtest.h>

#include <random>

namespace rq {
namespace {

// ---- helpers -----------------------------------------------------------------------

// Records what a find hands to its writer.
class RecordingWriter : public MatchWriter {
public:
    void vertex(const ResourceGraph& graph, const VertexEmission& v) override {
        std::string line = std::to_string(v.level) + ":" + std::string(graph.name(v.vertex)) + "[" +
                           std::to_string(v.needs) + (v.exclusive ? ":x]" : ":s]");
        vertices.push_back(line);
        if (v.agfilter != nullptr) agfilter[std::string(graph.name(v.vertex))] = *v.agfilter;
    }
    void edge(const ResourceGraph& graph, EdgeId e, bool) override {
        edges.push_back(std::string(graph.name(graph.source(e))) + "->" +
                        std::string(graph.name(graph.target(e))));
    }
    void time(int64_t start, int64_t end) override { times.emplace_back(start, end); }
    Status flush(std::ostream&) override { return ok_status(); }
    void reset() override { *this = RecordingWriter(); }

    std::vector<std::string> vertices;
    std::vector<std::string> edges;
    std::vector<std::pair<int64_t, int64_t>> times;
    std::map<std::string, std::map<std::string, std::string>> agfilter;
};

// tiny0 -> rack0 -> node0 -> {core0, core1}, node1 -> {core2, core3 (size 4 memory)}
struct SmallGraph {
    ResourceGraph graph;
    ScheduleStore store;
    VertexId cluster, rack, node0, node1, core0, core1, core2, mem0;

    SmallGraph() {
        cluster = add(types::kCluster, "tiny", "tiny0");
        rack = add(types::kRack, "rack", "rack0");
        node0 = add(types::kNode, "node", "node0");
        core0 = add(types::kCore, "core", "core0");
        core1 = add(types::kCore, "core", "core1");
        node1 = add(types::kNode, "node", "node1");
        core2 = add(types::kCore, "core", "core2");
        mem0 = add(graph.types().intern("memory"), "memory", "memory0", 4);
        graph.set_root(kContainment, cluster);
        link(cluster, rack);
        link(rack, node0);
        link(node0, core0);
        link(node0, core1);
        link(rack, node1);
        link(node1, core2);
        link(node1, mem0);
        store.resize(graph.num_vertices());
    }
    VertexId add(TypeId type, std::string_view basename, std::string_view name, int64_t size = 1) {
        VertexSpec spec;
        spec.type = type;
        spec.basename = basename;
        spec.name = name;
        spec.size = size;
        return graph.add_vertex(spec);
    }
    void link(VertexId a, VertexId b) { graph.add_edge(a, b, kContainment); }

    // A subtree plan tracking cores, with one span per job given.
    SubtreePlan& plan(VertexId v, int64_t cores) {
        return store.set_subtree(v, 0, MultiPlanner({types::kCore}, {cores}));
    }

    Status find(const std::string& criteria, RecordingWriter& writer, Time now = 0) {
        return find_resources(FindContext{graph, store, kContainment, now}, criteria, writer);
    }
    std::vector<std::string> found(const std::string& criteria) {
        RecordingWriter writer;
        Status s = find(criteria, writer);
        EXPECT_TRUE(s.ok()) << criteria << ": " << (s.ok() ? "" : s.message());
        return writer.vertices;
    }
};

using Lines = std::vector<std::string>;

// Evaluates `criteria` on a vertex with the given inherited flags.
bool holds(const std::string& criteria, FindFlags flags) {
    static SmallGraph g;
    auto expression = FindExpression::parse(criteria);
    EXPECT_TRUE(expression.ok()) << criteria << ": " << (expression.ok() ? "" : expression.message());
    return expression.ok() && expression->evaluate(FindTarget{g.graph, g.store, g.core0, flags});
}

FindFlags flags(bool down, bool allocated, bool reserved) { return FindFlags{down, allocated, reserved}; }

std::string parse_error(const std::string& criteria) {
    auto expression = FindExpression::parse(criteria);
    return expression.ok() ? "<parsed>" : expression.message();
}

// ---- parser: structure and precedence -----------------------------------------------------

TEST(FindParse, SinglePredicate) {
    auto e = FindExpression::parse("status=up");
    ASSERT_TRUE(e.ok());
    ASSERT_EQ(e->terms().size(), 1u);
    ASSERT_TRUE(e->terms()[0].predicate.has_value());
    EXPECT_EQ(e->terms()[0].predicate->key, FindPredicate::Key::kStatus);
    EXPECT_FALSE(e->terms()[0].predicate->flag);
    EXPECT_FALSE(e->agfilter());
    EXPECT_FALSE(e->jobid().has_value());
}

TEST(FindParse, TreeShapeWithGroupsAndOperators) {
    auto e = FindExpression::parse("status=up (sched-now=allocated or sched-future=reserved)");
    ASSERT_TRUE(e.ok());
    const auto& terms = e->terms();
    ASSERT_EQ(terms.size(), 2u);
    EXPECT_FALSE(terms[1].predicate.has_value());
    EXPECT_EQ(terms[1].op, FindOp::kAnd);  // adjacency
    ASSERT_EQ(terms[1].group.size(), 2u);
    EXPECT_EQ(terms[1].group[1].op, FindOp::kOr);
}

TEST(FindParse, StrictlyLeftToRightWithEqualPrecedence) {
    // (down or allocated) and reserved, not down or (allocated and reserved)
    EXPECT_FALSE(holds("status=down or sched-now=allocated and sched-future=reserved", flags(true, false, false)));
    EXPECT_TRUE(holds("status=down or sched-now=allocated and sched-future=reserved", flags(true, false, true)));
    // (down and allocated) or reserved
    EXPECT_TRUE(holds("status=down and sched-now=allocated or sched-future=reserved", flags(false, false, true)));
    // a chain of four: ((up or allocated) and free) or reserved
    EXPECT_TRUE(holds("status=up or sched-now=allocated and sched-future=free or sched-future=reserved",
                      flags(false, false, true)));
    EXPECT_FALSE(holds("status=up and sched-now=allocated or status=down and sched-future=reserved",
                       flags(false, true, false)));
}

TEST(FindParse, ParenthesesGroup) {
    EXPECT_TRUE(holds("status=down or (sched-now=allocated and sched-future=reserved)", flags(true, false, false)));
    EXPECT_TRUE(holds("(status=down) or ((sched-now=allocated) and (sched-future=reserved))",
                      flags(true, false, false)));
    EXPECT_FALSE(holds("status=up and (sched-now=allocated or sched-future=reserved)", flags(false, false, false)));
    EXPECT_TRUE(holds("status=up and (sched-now=allocated or sched-future=reserved)", flags(false, false, true)));
    // Parentheses need no surrounding blanks.
    EXPECT_TRUE(holds("(status=up and sched-now=allocated)or sched-future=reserved", flags(false, true, false)));
}

TEST(FindParse, AdjacentTermsMeanAnd) {
    EXPECT_FALSE(holds("status=down sched-now=allocated", flags(true, false, false)));
    EXPECT_TRUE(holds("status=down sched-now=allocated", flags(true, true, false)));
    EXPECT_TRUE(holds("status=up (sched-now=allocated sched-future=reserved)", flags(false, true, true)));
    EXPECT_FALSE(holds("status=up (sched-now=allocated sched-future=reserved)", flags(false, true, false)));
    // adjacency after an `or` chain still folds left to right: (down or allocated) and reserved
    EXPECT_FALSE(holds("status=down or sched-now=allocated sched-future=reserved", flags(true, false, false)));
}

TEST(FindParse, EveryKey) {
    for (const char* ok :
         {"status=up", "status=down", "sched-now=allocated", "sched-now=free", "sched-future=reserved",
          "sched-future=free", "agfilter=true", "agfilter=t", "agfilter=false", "agfilter=f", "names=node[0-1]",
          "names=node1", "names=node[0-1],rack0", "property=gpu", "property=class=fast", "jobid-alloc=1",
          "jobid-reserved=2", "jobid-tag=3", "jobid-span=4", "jobid-alloc=0x4d2", "jobid-tag=fNH"})
        EXPECT_EQ(parse_error(ok), "<parsed>") << ok;
}

TEST(FindParse, ValuesAreCaseInsensitive) {
    EXPECT_TRUE(holds("status=UP", flags(false, false, false)));
    EXPECT_TRUE(holds("status=Down", flags(true, false, false)));
    EXPECT_TRUE(holds("status=UP or status=Down", flags(true, false, false)));
    EXPECT_TRUE(holds("sched-now=ALLOCATED", flags(false, true, false)));
    EXPECT_TRUE(holds("sched-future=Free", flags(false, false, false)));
    EXPECT_TRUE(FindExpression::parse("agfilter=TRUE")->agfilter());
    EXPECT_TRUE(FindExpression::parse("agfilter=T")->agfilter());
    auto property = FindExpression::parse("property=GPU");
    ASSERT_TRUE(property.ok());
    EXPECT_EQ(property->terms()[0].predicate->property, "gpu");  // lower-cased, as the reference does
}

TEST(FindParse, AgfilterAndJobidAreRemembered) {
    auto e = FindExpression::parse("jobid-alloc=3 agfilter=t");
    ASSERT_TRUE(e.ok());
    EXPECT_TRUE(e->agfilter());
    EXPECT_EQ(e->jobid(), std::optional<uint64_t>(3));
    EXPECT_FALSE(FindExpression::parse("agfilter=t agfilter=f")->agfilter());  // the last one decides
    EXPECT_EQ(FindExpression::parse("jobid-tag=1 or (jobid-span=2)")->jobid(), std::optional<uint64_t>(2));
    EXPECT_TRUE(holds("agfilter=false", flags(false, false, false)));  // always true
}

TEST(FindParse, InvalidForms) {
    const char* invalid[] = {
        "", "   ", "status", "status=", "=up", "status=sideways", "foo=bar", "Status=up", "STATUS=up",
        "sched-now=reserved", "sched-future=allocated", "agfilter=yes", "agfilter=", "names=node[",
        "names=socket[af[", "names=node[3-1]", "property=", "jobid-alloc=", "jobid-alloc=abc",
        "jobid-alloc=-1", "jobid-alloc=1.5", "jobid-span=99999999999999999999", "jobid-tag=f0",
        "and", "or", "and status=up", "or status=up", "status=up and", "status=up or",
        "status=up and or status=down", "status=up or or status=down", "status=up AND status=down",
        "(status=up", "((status=up)", "status=up)", ")", "(", ")(", "()", "( )", "status=up ()",
        "(and status=up)", "(status=up or)", "status=up) (", "status=(up)", "property=a(b",
    };
    for (const char* text : invalid) EXPECT_NE(parse_error(text), "<parsed>") << "'" << text << "'";
    EXPECT_EQ(parse_error("foo=bar"),
              "unknown key 'foo' (valid: status, sched-now, sched-future, agfilter, names, property, jobid-alloc, "
              "jobid-reserved, jobid-tag, jobid-span)");
    EXPECT_EQ(parse_error("status=sideways"), "invalid value 'sideways' for status (valid: down, up)");
    EXPECT_EQ(parse_error("agfilter=yes"), "invalid value 'yes' for agfilter (valid: true, t, false, f)");
    EXPECT_EQ(parse_error("status"), "'status' is not key=value");
    EXPECT_EQ(parse_error("status=up )"), "unbalanced ')'");
    EXPECT_EQ(parse_error("(status=up"), "missing ')'");
    EXPECT_EQ(parse_error("()"), "empty parentheses");
    EXPECT_EQ(parse_error("status=up and"), "operator without a right operand");
}

TEST(FindParse, NestingIsBounded) {
    auto nested = [](int depth) {
        return std::string(depth, '(') + "status=up" + std::string(depth, ')');
    };
    EXPECT_EQ(parse_error(nested(FindExpression::kMaxNesting)), "<parsed>");
    EXPECT_EQ(parse_error(nested(FindExpression::kMaxNesting + 1)), "parentheses nested too deeply");
    EXPECT_NE(parse_error(std::string(100000, '(')), "<parsed>");  // no stack overflow
}

TEST(FindParse, RandomTokensNeverCrash) {
    SmallGraph g;
    const std::vector<std::string> vocabulary = {
        "status=up", "status=down", "sched-now=free", "sched-future=reserved", "agfilter=t", "names=node[0-1]",
        "property=x", "jobid-alloc=1", "jobid-span=2", "and", "or", "(", ")", "=", "status=", "x", "names=[",
        "((", "))", "=up", "jobid-tag=ƒ", "\xff\xfe", "names=a[1-", "0x", "and(", ")or",
    };
    std::mt19937 random(12345);
    int parsed = 0;
    for (int round = 0; round < 3000; ++round) {
        std::string criteria;
        int n = 1 + static_cast<int>(random() % 8);
        for (int i = 0; i < n; ++i) {
            if (i > 0) criteria += " ";
            if (random() % 10 == 0) {
                for (int k = 0; k < 4; ++k) criteria += static_cast<char>(random() % 256);
            } else {
                criteria += vocabulary[random() % vocabulary.size()];
            }
        }
        RecordingWriter writer;
        Status s = g.find(criteria, writer);
        if (s.ok()) {
            ++parsed;
        } else if (s.message().rfind("dom_find_dfv:", 0) != 0) {
            EXPECT_EQ(s.message(), "findfind: invalid criteria: " + criteria + ".");
        }
    }
    EXPECT_GT(parsed, 0);
}

// ---- job ids ----------------------------------------------------------------------------------

TEST(FindJobid, Encodings) {
    EXPECT_EQ(parse_flux_jobid("1234"), std::optional<uint64_t>(1234));
    EXPECT_EQ(parse_flux_jobid("0"), std::optional<uint64_t>(0));
    EXPECT_EQ(parse_flux_jobid("18446744073709551615"), std::optional<uint64_t>(UINT64_MAX));
    EXPECT_EQ(parse_flux_jobid("0x4d2"), std::optional<uint64_t>(1234));
    EXPECT_EQ(parse_flux_jobid("0x4D2"), std::optional<uint64_t>(1234));
    EXPECT_EQ(parse_flux_jobid("0000.0000.0000.04d2"), std::optional<uint64_t>(1234));
    EXPECT_EQ(parse_flux_jobid("0001.0000.0000.0000"), std::optional<uint64_t>(uint64_t{1} << 48));
    EXPECT_EQ(parse_flux_jobid("job.0000.0000.0000.04d2"), std::optional<uint64_t>(1234));
    EXPECT_EQ(parse_flux_jobid("\xC6\x92NH"), std::optional<uint64_t>(1234));  // ƒNH
    EXPECT_EQ(parse_flux_jobid("fNH"), std::optional<uint64_t>(1234));
    EXPECT_EQ(parse_flux_jobid("f1"), std::optional<uint64_t>(0));
}

TEST(FindJobid, Garbage) {
    for (const char* bad : {"", "-1", "+1", "1a", "12 ", "18446744073709551616", "0x", "0xg", "0x10000000000000000",
                            "1.2.3", "0000.0000.0000.00000", "job.1", "job.", "f", "f0", "fl", "\xC6\x92",
                            "word-word-word--word-word-word"})
        EXPECT_FALSE(parse_flux_jobid(bad).has_value()) << "'" << bad << "'";
}

// ---- evaluation and the walk --------------------------------------------------------------------

TEST(FindWalk, EmitsPostOrderWithSizeAndExclusive) {
    SmallGraph g;
    RecordingWriter writer;
    ASSERT_TRUE(g.find("status=up", writer).ok());
    EXPECT_EQ(writer.vertices, (Lines{"4:core0[1:x]", "4:core1[1:x]", "3:node0[1:x]", "4:core2[1:x]",
                                      "4:memory0[4:x]", "3:node1[1:x]", "2:rack0[1:x]", "1:tiny0[1:x]"}));
    EXPECT_EQ(writer.edges, (Lines{"node0->core0", "node0->core1", "rack0->node0", "node1->core2",
                                   "node1->memory0", "rack0->node1", "tiny0->rack0"}));
    ASSERT_EQ(writer.times.size(), 1u);
    EXPECT_EQ(writer.times[0], std::make_pair(int64_t{0}, int64_t{0}));
}

TEST(FindWalk, NoMatchEmitsNothingButTheTime) {
    SmallGraph g;
    RecordingWriter writer;
    ASSERT_TRUE(g.find("status=down", writer).ok());
    EXPECT_TRUE(writer.vertices.empty());
    EXPECT_TRUE(writer.edges.empty());
    EXPECT_EQ(writer.times.size(), 1u);
}

TEST(FindWalk, DownIsInheritedAndAncestorsAreEmitted) {
    SmallGraph g;
    g.graph.set_up(g.node1, false);
    EXPECT_EQ(g.found("status=down"), (Lines{"4:core2[1:x]", "4:memory0[4:x]", "3:node1[1:x]", "2:rack0[1:x]",
                                             "1:tiny0[1:x]"}));
    // Only the node's own subtree is up-excluded; its ancestors stay "up".
    EXPECT_EQ(g.found("status=up"), (Lines{"4:core0[1:x]", "4:core1[1:x]", "3:node0[1:x]", "2:rack0[1:x]",
                                           "1:tiny0[1:x]"}));
}

TEST(FindWalk, AllocatedAndReservedAreInherited) {
    SmallGraph g;
    g.store.get(g.node0, 1).allocations[1] = 1;
    g.store.get(g.core2, 1).reservations[2] = 1;
    EXPECT_EQ(g.found("sched-now=allocated"), (Lines{"4:core0[1:x]", "4:core1[1:x]", "3:node0[1:x]",
                                                     "2:rack0[1:x]", "1:tiny0[1:x]"}));
    EXPECT_EQ(g.found("sched-future=reserved"), (Lines{"4:core2[1:x]", "3:node1[1:x]", "2:rack0[1:x]",
                                                       "1:tiny0[1:x]"}));
    // sched-now=free matches the vertices without an allocation above them:
    // node1's subtree and (themselves free) rack0 and tiny0.
    EXPECT_EQ(g.found("sched-now=free"), (Lines{"4:core2[1:x]", "4:memory0[4:x]", "3:node1[1:x]",
                                                "2:rack0[1:x]", "1:tiny0[1:x]"}));
    EXPECT_EQ(g.found("sched-now=allocated or sched-future=reserved").size(), 7u);
    EXPECT_TRUE(g.found("sched-now=allocated sched-future=reserved").empty());
}

TEST(FindWalk, NamesAndProperties) {
    SmallGraph g;
    EXPECT_EQ(g.found("names=node1"), (Lines{"3:node1[1:x]", "2:rack0[1:x]", "1:tiny0[1:x]"}));
    EXPECT_EQ(g.found("names=NODE[0-1]"),
              (Lines{"3:node0[1:x]", "3:node1[1:x]", "2:rack0[1:x]", "1:tiny0[1:x]"}));
    EXPECT_EQ(g.found("names=core[1-2]"), (Lines{"4:core1[1:x]", "3:node0[1:x]", "4:core2[1:x]", "3:node1[1:x]",
                                                 "2:rack0[1:x]", "1:tiny0[1:x]"}));
    g.graph.set_property(g.core1, "gpu", "");
    g.graph.set_property(g.core2, "Fast", "yes");
    EXPECT_EQ(g.found("property=GPU"), (Lines{"4:core1[1:x]", "3:node0[1:x]", "2:rack0[1:x]", "1:tiny0[1:x]"}));
    EXPECT_TRUE(g.found("property=Fast").empty());  // the value is lower-cased, the property name is not
}

TEST(FindWalk, JobidPredicates) {
    SmallGraph g;
    g.store.get(g.core0, 1).allocations[7] = 1;
    g.store.get(g.core1, 1).reservations[7] = 1;
    g.store.get(g.core2, 1).tags.insert(7);
    g.plan(g.node1, 2).job2span[7] = 0;
    Lines tail{"2:rack0[1:x]", "1:tiny0[1:x]"};
    auto with_tail = [&](Lines lines) {
        lines.insert(lines.end(), tail.begin(), tail.end());
        return lines;
    };
    EXPECT_EQ(g.found("jobid-alloc=7"), with_tail({"4:core0[1:x]", "3:node0[1:x]"}));
    EXPECT_EQ(g.found("jobid-reserved=7"), with_tail({"4:core1[1:x]", "3:node0[1:x]"}));
    EXPECT_EQ(g.found("jobid-tag=7"), with_tail({"4:core2[1:x]", "3:node1[1:x]"}));
    EXPECT_EQ(g.found("jobid-span=7"), with_tail({"3:node1[1:x]"}));
    EXPECT_EQ(g.found("jobid-alloc=0x7"), with_tail({"4:core0[1:x]", "3:node0[1:x]"}));
    EXPECT_TRUE(g.found("jobid-alloc=8").empty());
    EXPECT_TRUE(g.found("jobid-alloc=18446744073709551615").empty());
}

TEST(FindWalk, AlreadyVisitedTargetsAndOtherSubsystemsAreSkipped) {
    SmallGraph g;
    g.graph.add_edge(g.node1, g.core0, kContainment);  // core0 seen through node0 first
    SubsystemId power = g.graph.subsystems().intern("power");
    g.graph.add_edge(g.cluster, g.core1, power);
    EXPECT_EQ(g.found("names=core[0-1]"), (Lines{"4:core0[1:x]", "4:core1[1:x]", "3:node0[1:x]", "2:rack0[1:x]",
                                                 "1:tiny0[1:x]"}));
}

TEST(FindWalk, ClearsStaleEphemeralLabels) {
    SmallGraph g;
    g.store.get(g.core0, 1).ephemeral["label"] = "charlie";
    g.found("status=down");
    EXPECT_TRUE(g.store.find(g.core0)->ephemeral.empty());
}

TEST(FindWalk, AgfilterPrintsOnlyVerticesWithSubtreePlans) {
    SmallGraph g;
    g.plan(g.cluster, 3);
    g.plan(g.rack, 3);
    SubtreePlan& node0 = g.plan(g.node0, 2);
    g.plan(g.node1, 1);
    ASSERT_TRUE(node0.plan.add_span(0, 100, {2}).ok());
    RecordingWriter writer;
    // Long after the span: "used" falls back to time 0.
    ASSERT_TRUE(g.find("agfilter=t", writer, 5000).ok());
    EXPECT_EQ(writer.vertices, (Lines{"3:node0[1:x]", "3:node1[1:x]", "2:rack0[1:x]", "1:tiny0[1:x]"}));
    EXPECT_EQ(writer.edges, (Lines{"rack0->node0", "rack0->node1", "tiny0->rack0"}));
    EXPECT_EQ(writer.agfilter["node0"]["core"], "used:2, total:2");
    EXPECT_EQ(writer.agfilter["node1"]["core"], "used:0, total:1");
    EXPECT_EQ(writer.agfilter["tiny0"]["core"], "used:0, total:3");

    // A span covering "now" is what counts.
    ASSERT_TRUE(node0.plan.add_span(4000, 2000, {1}).ok());
    RecordingWriter later;
    ASSERT_TRUE(g.find("agfilter=true", later, 5000).ok());
    EXPECT_EQ(later.agfilter["node0"]["core"], "used:1, total:2");

    // agfilter=f: everything, no agfilter data.
    RecordingWriter off;
    ASSERT_TRUE(g.find("agfilter=f", off).ok());
    EXPECT_EQ(off.vertices.size(), 8u);
    EXPECT_TRUE(off.agfilter.empty());
}

TEST(FindWalk, AgfilterWithJobidUsesTheJobsSpans) {
    SmallGraph g;
    for (VertexId v : {g.cluster, g.rack, g.node0}) {
        SubtreePlan& plan = g.plan(v, 4);
        auto span = plan.plan.add_span(0, 100, {2});
        ASSERT_TRUE(span.ok());
        plan.job2span[5] = *span;
    }
    g.store.get(g.core0, 1).allocations[5] = 1;
    g.store.get(g.core1, 1).allocations[5] = 2;
    RecordingWriter writer;
    ASSERT_TRUE(g.find("jobid-alloc=5 agfilter=t", writer, 5000).ok());
    // The matching cores have no subtree plan, so with agfilter they are
    // not printed and do not count as matched children; node0 itself has
    // no allocation, so nothing at all is printed.
    EXPECT_TRUE(writer.vertices.empty());

    RecordingWriter tagged;
    g.store.get(g.node0, 1).tags.insert(5);
    ASSERT_TRUE(g.find("jobid-tag=5 agfilter=t", tagged).ok());
    EXPECT_EQ(tagged.vertices, (Lines{"3:node0[1:x]", "2:rack0[1:x]", "1:tiny0[1:x]"}));
    EXPECT_EQ(tagged.agfilter["rack0"]["core"], "used:2, total:4");
}

TEST(FindWalk, AgfilterWithJobidFailsOnAMissingSpan) {
    SmallGraph g;
    g.plan(g.cluster, 4);
    g.plan(g.rack, 4);
    SubtreePlan& node0 = g.plan(g.node0, 4);
    node0.job2span[5] = *node0.plan.add_span(0, 100, {2});
    g.store.get(g.node0, 1).allocations[5] = 1;
    RecordingWriter writer;
    Status s = g.find("jobid-alloc=5 agfilter=t", writer);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(), "dom_find_dfv: span missing in job2span  for vertex: rack0");
}

TEST(FindWalk, InvalidCriteriaText) {
    SmallGraph g;
    RecordingWriter writer;
    Status s = g.find("names=socket[af[", writer);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(), "findfind: invalid criteria: names=socket[af[.");
    // ...and the parser's reason, which the reference computes and drops.
    EXPECT_EQ(s.error().detail,
              "invalid value 'socket[af[' for names (expected a host list such as node[0-3],core5)");
    EXPECT_TRUE(writer.vertices.empty());
    EXPECT_TRUE(writer.times.empty());
}

TEST(FindWalk, DeepChainNeedsNoDeepRecursion) {
    ResourceGraph graph;
    ScheduleStore store;
    const int depth = 100000;
    VertexId previous = kNoVertex;
    for (int i = 0; i < depth; ++i) {
        VertexSpec spec;
        spec.type = types::kRack;
        spec.basename = "r";
        std::string name = "r" + std::to_string(i);
        spec.name = name;
        VertexId v = graph.add_vertex(spec);
        if (previous == kNoVertex)
            graph.set_root(kContainment, v);
        else
            graph.add_edge(previous, v, kContainment);
        previous = v;
    }
    store.resize(graph.num_vertices());
    RecordingWriter writer;
    ASSERT_TRUE(find_resources(FindContext{graph, store, kContainment, 0}, "names=r99999", writer).ok());
    ASSERT_EQ(writer.vertices.size(), static_cast<size_t>(depth));
    EXPECT_EQ(writer.vertices.front(), "100000:r99999[1:x]");
    EXPECT_EQ(writer.vertices.back(), "1:r0[1:x]");
}

}  // namespace
}  // namespace rq
