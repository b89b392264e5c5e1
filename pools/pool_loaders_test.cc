#include "pools/pool_loaders.h"

#include <gtest/gtest.h>

#include <sstream>

#include "pools/env_writer.h"
#include "pools/pool_graph.h"

namespace rq::pools {
namespace {

void expect_error(const Result<Machine>& m, const std::string& says) {
    ASSERT_FALSE(m.ok()) << says;
    EXPECT_NE(m.message().find(says), std::string::npos) << m.message();
}

TEST(HqWorkers, CountNamesAndPools) {
    auto m = read_hq_workers("workers:\n  - name: cn\n    count: 3\n    resources: {cpus: 2x2, mem: sum(5)}\n"
                             "  - name: big\n    resources: {gpus/nvidia: range(0-1)}\n",
                             "w.yaml");
    ASSERT_TRUE(m) << m.message();
    ResourceGraph g;
    ASSERT_TRUE(build_pool_graph(*m, g).ok());
    EXPECT_EQ(g.by_type(types::kNode).size(), 4u);
    EXPECT_EQ(g.at_path("/cluster0/cn2/cpus/group1/3").size(), 1u);
    EXPECT_EQ(g.at_path("/cluster0/big/gpus/nvidia/1").size(), 1u);
    auto mem = g.at_path("/cluster0/cn0/mem");
    ASSERT_EQ(mem.size(), 1u);
    EXPECT_EQ(g.size(mem[0]), 5);
}

TEST(HqWorkers, YamlListsAreDefinitionsToo) {
    auto m = read_hq_workers("- {name: a, resources: {cpus: [[0, 1], [2]], fpga: [\"x y\", z]}}", "w.yaml");
    ASSERT_TRUE(m) << m.message();
    auto& pools = m->workers[0].pools;
    ASSERT_EQ(pools.size(), 2u);
    EXPECT_TRUE(pools[0].grouped);
    EXPECT_EQ(pools[0].groups.size(), 2u);
    EXPECT_EQ(pools[1].groups[0][0].id, "x y");
    expect_error(read_hq_workers("- {name: a, resources: {cpus: {x: 1}}}", "w.yaml"),
                 "workers[0].resources.cpus: a definition must be");
}

TEST(HqWorkers, ErrorsNameFileAndPlace) {
    expect_error(read_hq_workers("workers: 3", "w.yaml"), "w.yaml: expected a list of workers");
    expect_error(read_hq_workers("- {count: 2}", "w.yaml"), "w.yaml: workers[0]: a worker needs a `name`");
    expect_error(read_hq_workers("- {name: a, count: 0}", "w.yaml"), "workers[0].count: must be an integer");
    expect_error(read_hq_workers("- {name: a, resources: {cpus: 'range(2-1)'}}", "w.yaml"),
                 "w.yaml: workers[0].resources.cpus: resource pool cpus: range(2-1) ends before it starts");
    expect_error(read_hq_workers("- {name: a}\n- {name: a}", "w.yaml"), "worker name a is used twice");
    expect_error(read_hq_workers("- {name: a, colour: red}", "w.yaml"), "unknown key `colour`");
    expect_error(read_hq_workers("[", "w.yaml"), "w.yaml: not valid YAML/JSON");
}

TEST(Canary, FullFormShorthandAndErrors) {
    auto full = read_canary_pool(R"({"resource_pool": {"additional_properties": {}, "resources": {
        "cpus": [{"id": "0"}, {"id": "1", "slots": 1}], "gpus": [{"id": "0", "slots": 2}]}}})",
                                 "p.json");
    ASSERT_TRUE(full) << full.message();
    ASSERT_EQ(full->workers[0].pools.size(), 2u);
    EXPECT_EQ(full->workers[0].pools[1].groups[0][0].slots, 2);
    auto shorthand = read_canary_pool("resource_pool:\n  cpus: 32\n  fpgas: 0\n", "p.yaml");
    ASSERT_TRUE(shorthand);
    EXPECT_EQ(shorthand->workers[0].pools[0].groups[0].size(), 32u);
    EXPECT_TRUE(shorthand->workers[0].pools[1].groups[0].empty());
    expect_error(read_canary_pool("resource_pool: {gpus: -1}", "p.yaml"), "p.yaml: resource_pool.gpus: expected a count");
    expect_error(read_canary_pool(R"({"resources": {"gpus": [{"slots": 2}]}})", "p.json"),
                 "p.json: resources.gpus[0]: an instance needs a string `id`");
    expect_error(read_canary_pool(R"({"resources": {"gpus": [{"id": "0", "slots": 0}]}})", "p.json"),
                 "resources.gpus[0].slots: must be a positive integer");
    expect_error(read_canary_pool(R"({"resources": {"gpus": [{"id": "0"}, {"id": "0"}]}})", "p.json"),
                 "id 0 appears twice");
}

TEST(Ctest, ValidatesAsCtest) {
    const char* good = R"({"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 2},
        {"id": "3"}], "crypto_chips": [{"id": "card0", "slots": 4}], "$comment": 1}]})";
    auto m = read_ctest_spec(good, "s.json");
    ASSERT_TRUE(m) << m.message();
    EXPECT_EQ(m->workers[0].pools.size(), 2u);
    expect_error(read_ctest_spec("{", "s.json"), "s.json: not valid JSON");
    expect_error(read_ctest_spec(R"({"local": [{}]})", "s.json"), "s.json: version: missing");
    expect_error(read_ctest_spec(R"({"version": {"major": 2, "minor": 0}, "local": [{}]})", "s.json"),
                 "only version 1.0");
    expect_error(read_ctest_spec(R"({"version": {"major": 1, "minor": 0}, "local": [{}, {}]})", "s.json"),
                 "local: must hold at most one resource set");
    // `_comment` is a type name to CTest (cmCTestResourceSpec.cxx:21), so its
    // value must be a list like any other type's.
    expect_error(read_ctest_spec(R"({"version": {"major": 1, "minor": 0}, "local": [{"_comment": 1}]})", "s.json"),
                 "local[0]._comment: must be an array");
    expect_error(read_ctest_spec(R"({"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "A"}]}]})",
                                 "s.json"),
                 "local[0].gpus[0].id: 'A' must be lowercase");
    expect_error(read_ctest_spec(R"({"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "a", "slots": -1}]}]})",
                                 "s.json"),
                 "local[0].gpus[0].slots: must be a non-negative integer");
}

// crates/hyperqueue/src/worker/start/program.rs:281-287, 328-338 and
// crates/tako/src/internal/common/resources/request.rs:85-96.
TEST(EnvWriter, HqResourceRequestIsAmountAndStrategyUnderBothNames) {
    ResourceGraph g;
    Machine m;
    Worker w{"w", {}, 1, false};
    w.pools.push_back(*parse_pool_definition("gpus/nvidia", "range(0-7)"));
    m.workers.push_back(w);
    ASSERT_TRUE(build_pool_graph(m, g).ok());
    TypeId t = g.types().find("gpus/nvidia");
    PoolTake take{"gpus/nvidia", t, false, Strategy::kTight, {}};
    for (VertexId v : g.by_type(t))
        if (take.items.size() < 6) take.items.push_back({v, 1});
    Allocation a;
    a.pools.push_back(take);
    EnvWriter env(false);
    env.set_allocation(a, g, Dialect::kHq);
    std::ostringstream out;
    ASSERT_TRUE(env.flush(out).ok());
    EXPECT_NE(out.str().find("HQ_RESOURCE_REQUEST_gpus/nvidia='6 tight'\n"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("HQ_RESOURCE_REQUEST_gpus_nvidia='6 tight'\n"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("HQ_RESOURCE_VALUES_gpus_nvidia="), std::string::npos) << out.str();
    a.pools[0].all = true;
    env.set_allocation(a, g, Dialect::kHq);
    std::ostringstream all;
    ASSERT_TRUE(env.flush(all).ok());
    EXPECT_NE(all.str().find("HQ_RESOURCE_REQUEST_gpus_nvidia='all'\n"), std::string::npos) << all.str();
}

TEST(EnvWriter, QuotesValuesAndExportsOnlyShellNames) {
    ResourceGraph g;
    Machine m;
    Worker w{"w", {}, 1, false};
    w.pools.push_back(*parse_pool_definition("gpus/nvidia", "[\"it's\", b]"));
    m.workers.push_back(w);
    ASSERT_TRUE(build_pool_graph(m, g).ok());
    Allocation a;
    PoolTake take{"gpus/nvidia", g.types().find("gpus/nvidia"), false, Strategy::kCompact, {}};
    for (VertexId v : g.by_type(g.types().find("gpus/nvidia"))) take.items.push_back({v, 1});
    a.pools.push_back(take);
    EnvWriter env(false);
    env.set_allocation(a, g, Dialect::kHq);
    env.set_templates({{"MY_GPUS", "[%(gpus/nvidia_ids)s]"}});
    std::ostringstream out;
    ASSERT_TRUE(env.flush(out).ok());
    EXPECT_NE(out.str().find("HQ_RESOURCE_VALUES_gpus/nvidia='it'\\''s,b'\n"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("CUDA_DEVICE_ORDER='PCI_BUS_ID'\n"), std::string::npos);
    EXPECT_NE(out.str().find("MY_GPUS='[it'\\''s,b]'\n"), std::string::npos) << out.str();
    EnvWriter exp(true);
    exp.set_allocation(a, g, Dialect::kHq);
    std::ostringstream eout;
    ASSERT_TRUE(exp.flush(eout).ok());
    EXPECT_EQ(eout.str().find("gpus/nvidia"), std::string::npos) << eout.str();
    EXPECT_NE(eout.str().find("export CUDA_VISIBLE_DEVICES='it'\\''s,b'\n"), std::string::npos);
}

// GRUG's memory guard (resource/grug.h): refused while reading, before the
// workers or items are expanded (docs/formats.md "Limits on input files").
TEST(PoolLimits, EachLoaderRefusesWhatMemoryCannotHold) {
    GrugLimits limits;
    limits.memory_bytes = uint64_t{1} << 30;  // half is 512 MiB: about 1.3 million vertices
    expect_error(read_hq_workers("- {name: w, count: 10000000, resources: {cpus: 4x8}}", "w.yaml", limits),
                 "w.yaml: workers[0]: the pools would generate 370,000,001 vertices");
    expect_error(read_hq_workers("- {name: w, count: 10000000, resources: {cpus: 4x8}}", "w.yaml", limits),
                 "more than half of the 1.0 GiB this machine has");
    expect_error(read_canary_pool("resource_pool: {cpus: 16777216}", "p.yaml", limits),
                 "p.yaml: resource_pool.cpus: the pools would generate");
    limits.memory_bytes = 1000;  // room for one vertex
    expect_error(read_ctest_spec(R"({"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "a"}]}]})",
                                 "s.json", limits),
                 "s.json: local[0].gpus: the pools would generate 3 vertices");
    // Without limits only the id space bounds them.
    EXPECT_TRUE(read_hq_workers("- {name: w, count: 1000}", "w.yaml").ok());
}

}  // namespace
}  // namespace rq::pools
