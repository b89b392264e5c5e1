// -f local on machines other than this one: fake /proc trees and hwloc
// topologies written for the test (docs/pools.md "The local machine").
#include "pools/local_detect.h"

#include <gtest/gtest.h>
#include <hwloc.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

namespace rq::pools {
namespace {

namespace fs = std::filesystem;

// A scratch folder removed at the end of the test.
struct ScratchDir {
    ScratchDir() {
        char name[] = "/tmp/rq-local-detect-XXXXXX";
        path = mkdtemp(name);
    }
    ~ScratchDir() { fs::remove_all(path); }
    void write(const std::string& relative, const std::string& text) const {
        fs::create_directories((path / relative).parent_path());
        std::ofstream(path / relative) << text;
    }
    fs::path path;
};

// An hwloc XML export of the synthetic topology `description` in `dir`.
std::string synthetic_xml(const ScratchDir& dir, const char* description) {
    hwloc_topology_t topo = nullptr;
    hwloc_topology_init(&topo);
    hwloc_topology_set_synthetic(topo, description);
    hwloc_topology_load(topo);
    std::string file = (dir.path / "topology.xml").string();
    hwloc_topology_export_xml(topo, file.c_str(), 0);
    hwloc_topology_destroy(topo);
    return file;
}

const Pool* pool_named(const Machine& m, const std::string& name) {
    for (const Pool& p : m.workers.at(0).pools)
        if (p.name == name) return &p;
    return nullptr;
}

const char kMeminfo[] = "MemTotal:       131923436 kB\nMemFree:        125000000 kB\nMemAvailable:   126000000 kB\n";

// Sources for a machine with kMeminfo, the synthetic topology `description`
// and the affinity mask `allowed`, all written in `dir`.
LocalSources fake_machine(const ScratchDir& dir, const char* description, std::set<unsigned> allowed) {
    dir.write("proc/meminfo", kMeminfo);
    LocalSources sources;
    sources.proc_root = (dir.path / "proc").string();
    sources.topology_xml = synthetic_xml(dir, description);
    sources.allowed_cpus = std::move(allowed);
    return sources;
}

// HyperQueue's memory is the sysinfo crate's total_memory(), the kernel's
// MemTotal (crates/hyperqueue/src/worker/hwdetect.rs:239-244), not the
// NUMA memory hwloc reports (4 GiB in this topology).
TEST(LocalDetect, MemIsMemTotalNotNumaMemory) {
    ScratchDir dir;
    LocalSources sources = fake_machine(dir, "numa:1(memory=4294967296) core:4 pu:1", {0, 1, 2, 3});
    auto m = detect_local_machine(sources);
    ASSERT_TRUE(m) << m.message();
    const Pool* mem = pool_named(*m, "mem");
    ASSERT_NE(mem, nullptr);
    EXPECT_TRUE(mem->sum);
    EXPECT_EQ(mem->size, int64_t(131923436) * 1024);
}

TEST(LocalDetect, MemTotalParsing) {
    EXPECT_EQ(mem_total_bytes(kMeminfo), uint64_t(131923436) * 1024);
    EXPECT_EQ(mem_total_bytes("MemFree: 10 kB\nMemTotal: 2 kB\n"), uint64_t(2048));
    EXPECT_EQ(mem_total_bytes("MemFree: 10 kB\n"), std::nullopt);
    EXPECT_EQ(mem_total_bytes("MemTotal: lots\n"), std::nullopt);
    EXPECT_EQ(mem_total_bytes("MemTotal: 12 MB\n"), std::nullopt);
}

// HyperQueue keeps only the cpus of the affinity mask in each NUMA node
// (hwdetect.rs:52-70, filter_masked_cpus): `taskset -c 1` gives cpus [1].
TEST(LocalDetect, CpusOutsideTheAffinityMaskAreLeftOut) {
    ScratchDir dir;
    LocalSources sources = fake_machine(dir, "core:2 pu:1", {1});
    auto m = detect_local_machine(sources);
    ASSERT_TRUE(m) << m.message();
    EXPECT_EQ(format_pool_definition(*pool_named(*m, "cpus")), "range(1-1)");
}

TEST(LocalDetect, AMaskOverNumaNodesKeepsTheirGroups) {
    ScratchDir dir;
    // One cpu of node 0, both of node 1, none of node 2.
    LocalSources sources = fake_machine(dir, "pack:3 numa:1 core:2 pu:1", {1, 2, 3});
    auto m = detect_local_machine(sources);
    ASSERT_TRUE(m) << m.message();
    const Pool* cpus = pool_named(*m, "cpus");
    EXPECT_TRUE(cpus->grouped);
    EXPECT_EQ(format_pool_definition(*cpus), "[[1], [2, 3]]");
    sources.allowed_cpus = std::set<unsigned>{2, 3};  // one node left: a plain list
    m = detect_local_machine(sources);
    ASSERT_TRUE(m) << m.message();
    EXPECT_FALSE(pool_named(*m, "cpus")->grouped);
    EXPECT_EQ(format_pool_definition(*pool_named(*m, "cpus")), "range(2-3)");
}

// Without CUDA_VISIBLE_DEVICES, HyperQueue counts /proc/driver/nvidia/gpus
// (hwdetect.rs:234-237, read_nvidia_linux_gpu_count).
TEST(LocalDetect, NvidiaGpusFromTheProcTree) {
    ScratchDir dir;
    dir.write("proc/driver/nvidia/gpus/0000:00:06.0/information", "Model: NVIDIA H200\n");
    LocalSources sources = fake_machine(dir, "core:2 pu:1", {0, 1});
    unsetenv("CUDA_VISIBLE_DEVICES");
    auto m = detect_local_machine(sources);
    ASSERT_TRUE(m) << m.message();
    const Pool* gpus = pool_named(*m, "gpus/nvidia");
    ASSERT_NE(gpus, nullptr);
    EXPECT_EQ(format_pool_definition(*gpus), "range(0-0)");
}

// The real H200 node (../shared/machines, README there): 16 cpus; its
// NUMA memory (about 4.4 GB) is not its memory, MemTotal is.
TEST(LocalDetect, H200Node) {
    const fs::path xml = RQ_SHARED_DIR "/machines/h200-node-wholeio.xml";
    if (!fs::exists(xml)) GTEST_SKIP() << xml << " is absent";
    ScratchDir dir;
    dir.write("proc/meminfo", kMeminfo);
    LocalSources sources;
    sources.proc_root = (dir.path / "proc").string();
    sources.topology_xml = xml.string();
    sources.allowed_cpus = std::set<unsigned>{1};
    auto m = detect_local_machine(sources);
    ASSERT_TRUE(m) << m.message();
    EXPECT_EQ(format_pool_definition(*pool_named(*m, "cpus")), "range(1-1)");
    EXPECT_EQ(pool_named(*m, "mem")->size, int64_t(131923436) * 1024);
}

}  // namespace
}  // namespace rq::pools
