// -F env per dialect (docs/pools.md "-F env"): each tool's own variables,
// the GPU visibility every tool sets, and the comment lines.
#include "pools/env_writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "pools/pool_graph.h"

namespace rq::pools {
namespace {

// One worker: cpus [0,1,2,3], gpus as two instances of 2 slots (canary's
// manual), gpus/nvidia [0,1].
struct Pools {
    ResourceGraph g;
    Pools() {
        Machine m;
        Worker w{"w", {}, 1, false};
        w.pools.push_back(*parse_pool_definition("cpus", "[0, 1, 2, 3]"));
        Pool gpus = *parse_pool_definition("gpus", "[0, 1]");
        for (PoolItem& item : gpus.groups[0]) item.slots = 2;
        w.pools.push_back(gpus);
        w.pools.push_back(*parse_pool_definition("gpus/nvidia", "[0, 1]"));
        m.workers.push_back(w);
        EXPECT_TRUE(build_pool_graph(m, g).ok());
    }
    // `amounts[k]` of the k-th item of `pool`.
    PoolTake take(const std::string& pool, std::vector<int64_t> amounts) {
        TypeId t = g.types().find(pool);
        PoolTake p{pool, t, false, Strategy::kCompact, {}};
        size_t k = 0;
        for (VertexId v : g.by_type(t))
            if (k < amounts.size()) p.items.push_back({v, amounts[k++]});
        return p;
    }
    std::string env(const Allocation& a, Dialect d, const std::string& worker = "",
                    std::vector<std::pair<std::string, std::string>> templates = {}) {
        EnvWriter w(false);
        w.set_allocation(a, g, d, worker);
        w.set_templates(std::move(templates));
        std::ostringstream out;
        EXPECT_TRUE(w.flush(out).ok());
        return out.str();
    }
};

// crates/hyperqueue/src/worker/start/program.rs:270-325: HQ_* and
// HQ_CPUS/OMP_NUM_THREADS for cpus, CUDA_* for gpus/nvidia; nothing of
// canary's or CTest's.
TEST(EnvDialect, HyperQueuePrintsItsOwnVariables) {
    Pools p;
    Allocation a;
    a.pools = {p.take("cpus", {1, 1}), p.take("gpus/nvidia", {1})};
    EXPECT_EQ(p.env(a, Dialect::kHq),
              "HQ_RESOURCE_REQUEST_cpus='2 compact'\n"
              "HQ_RESOURCE_VALUES_cpus='0,1'\n"
              "HQ_CPUS='0,1'\n"
              "OMP_NUM_THREADS='2'\n"
              "HQ_RESOURCE_REQUEST_gpus/nvidia='1 compact'\n"
              "HQ_RESOURCE_REQUEST_gpus_nvidia='1 compact'\n"
              "HQ_RESOURCE_VALUES_gpus/nvidia='0'\n"
              "HQ_RESOURCE_VALUES_gpus_nvidia='0'\n"
              "CUDA_VISIBLE_DEVICES='0'\n"
              "CUDA_DEVICE_ORDER='PCI_BUS_ID'\n");
}

// canary: one id per slot (src/_canary/resource_pool/rpool.py:342-345,
// job.py:523-526); its NVIDIA plugin names each gpu once
// (src/canary_nvidia/__init__.py:33-40) unless the user set it (:23-25).
TEST(EnvDialect, CanaryListsAnIdPerSlotAndEachGpuOnce) {
    Pools p;
    Allocation a;
    a.pools = {p.take("gpus", {2, 1}), p.take("cpus", {1})};
    EXPECT_EQ(p.env(a, Dialect::kCanary),
              "CANARY_GPU_IDS='0,0,1'\n"
              "CANARY_CPU_IDS='0'\n"
              "CUDA_VISIBLE_DEVICES='0,1'\n");
    EXPECT_EQ(p.env(a, Dialect::kCanary, "", {{"CUDA_VISIBLE_DEVICES", "%(gpu_ids)s"}}),
              "CANARY_GPU_IDS='0,0,1'\n"
              "CANARY_CPU_IDS='0'\n"
              "CUDA_VISIBLE_DEVICES='0,0,1'\n");
}

// CTest's variables only (CMake Source/CTest/cmCTestRunTest.cxx:938-962),
// and the gpus every tool makes visible.
TEST(EnvDialect, CtestPrintsItsGroups) {
    Pools p;
    Allocation a;
    a.ctest_groups = {{{p.take("gpus", {2}).items[0]}}, {{p.take("gpus", {2}).items[0]}}};
    EXPECT_EQ(p.env(a, Dialect::kCtest),
              "CTEST_RESOURCE_GROUP_COUNT='2'\n"
              "CTEST_RESOURCE_GROUP_0='gpus'\n"
              "CTEST_RESOURCE_GROUP_0_GPUS='id:0,slots:2'\n"
              "CTEST_RESOURCE_GROUP_1='gpus'\n"
              "CTEST_RESOURCE_GROUP_1_GPUS='id:0,slots:2'\n"
              "CUDA_VISIBLE_DEVICES='0'\n");
}

TEST(EnvDialect, WorkerAndReservationAreComments) {
    Pools p;
    Allocation a;
    a.pools = {p.take("gpus/nvidia", {1})};
    EXPECT_EQ(p.env(a, Dialect::kHq, "gpu3").rfind("# worker gpu3\nHQ_RESOURCE_REQUEST_gpus/nvidia=", 0), 0u);
    a.at = 3600;  // planned for later: its gpu may be busy now
    EXPECT_EQ(p.env(a, Dialect::kHq, "gpu3"), "# worker gpu3\n# reserved at 3600\n");
}

// A match on a graph of several workers names those it used.
TEST(EnvDialect, MatchNamesItsWorkers) {
    ResourceGraph g;
    Machine m;
    Worker w{"n", {}, 2, true};
    w.pools.push_back(*parse_pool_definition("cpus", "[0, 1]"));
    m.workers.push_back(w);
    ASSERT_TRUE(build_pool_graph(m, g).ok());
    EnvWriter env(false);
    VertexEmission core;
    core.vertex = g.by_type(g.types().find("cpus"))[2];
    core.needs = 1;
    core.exclusive = true;
    env.vertex(g, core);
    VertexEmission node;
    node.vertex = g.by_type(g.types().find("node"))[1];
    env.vertex(g, node);
    env.time(0, 3600);
    std::ostringstream out;
    ASSERT_TRUE(env.flush(out).ok());
    EXPECT_EQ(out.str().rfind("# worker n1\nHQ_RESOURCE_REQUEST_cpus='1'\n", 0), 0u) << out.str();
}

// traversers/find.cc ends a find with time(0, 0): nothing was allocated.
TEST(EnvDialect, FindPrintsNothing) {
    Pools p;
    EnvWriter w(false);
    VertexEmission v;
    v.vertex = p.g.by_type(p.g.types().find("cpus"))[0];
    v.needs = 1;
    v.exclusive = true;
    w.vertex(p.g, v);
    w.time(0, 0);
    std::ostringstream out;
    ASSERT_TRUE(w.flush(out).ok());
    EXPECT_EQ(out.str(), "");
    w.vertex(p.g, v);
    w.time(0, 3600);  // a match
    ASSERT_TRUE(w.flush(out).ok());
    EXPECT_EQ(out.str(), "HQ_RESOURCE_REQUEST_cpus='1'\nHQ_RESOURCE_VALUES_cpus='0'\nHQ_CPUS='0'\nOMP_NUM_THREADS='1'\n");
}

// canary fills %(<name>_ids)s (job.py:528-535); ours refuses a placeholder
// it could not fill, naming it.
TEST(EnvDialect, UnknownPlaceholdersAreRefused) {
    auto is_pool = [](const std::string& name) { return name == "gpus" || name == "cpus"; };
    EXPECT_TRUE(check_placeholders("V", "%(gpu_ids)s:%(cpus_ids)s 100%", is_pool));
    auto fpga = check_placeholders("V", "[%(fpga_ids)s]", is_pool);
    ASSERT_FALSE(fpga);
    EXPECT_EQ(fpga.message(), "--env V: placeholder %(fpga_ids)s: unknown placeholder: no pool fpga or fpgas");
    EXPECT_FALSE(check_placeholders("V", "%(gpu)s", is_pool));
    EXPECT_FALSE(check_placeholders("V", "%(gpu_ids", is_pool));
    EXPECT_FALSE(check_placeholders("V", "%(gpu_ids)d", is_pool));
}

}  // namespace
}  // namespace rq::pools
