// `node[1]->slot[S]->core[N]` (and `->gpu[1]`) on a machine hwloc loads
// whole (node -> package -> cache/group/numa -> core, GPUs under PCI
// bridges) chooses exactly what the same request chooses on the flat graph
// `-W node,core,gpu` loads from the same file: for every policy, after
// allocations, reservations and cancels in a pseudo-random order. The
// machines: hwloc synthetic topologies, hand-written exports with GPUs
// (duplicate OS devices, GPUs on packages and on the machine, PCI bus order
// unlike the tree order), and the hwloc exports of the conformance suite
// when ../shared is there.
#include <gtest/gtest.h>
#include <hwloc.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "resource/loader.h"
#include "traversers/test_fixture.h"

namespace rq {
namespace {

using testing::jobspec_yaml;
using testing::Matcher;

// ---- machines --------------------------------------------------------------------

std::string with_host_name(const std::string& synthetic) {
    hwloc_topology_t topology;
    EXPECT_EQ(hwloc_topology_init(&topology), 0);
    EXPECT_EQ(hwloc_topology_set_synthetic(topology, synthetic.c_str()), 0) << synthetic;
    EXPECT_EQ(hwloc_topology_load(topology), 0);
    EXPECT_EQ(hwloc_obj_add_info(hwloc_get_root_obj(topology), "HostName", "host3"), 0);
    char* buffer = nullptr;
    int length = 0;
    EXPECT_EQ(hwloc_topology_export_xmlbuffer(topology, &buffer, &length, 0), 0);
    std::string xml(buffer);
    hwloc_free_xmlbuffer(topology, buffer);
    hwloc_topology_destroy(topology);
    return xml;
}

// hwloc's bitmap text for PUs [first, last]: 32-bit words, most
// significant first, "0x...,0x...".
std::string mask(int first, int last) {
    std::vector<uint32_t> words(static_cast<size_t>(last / 32 + 1), 0);
    for (int i = first; i <= last; ++i) words[static_cast<size_t>(i / 32)] |= 1u << (i % 32);
    std::string out;
    char buf[16];
    for (size_t w = words.size(); w-- > 0;) {
        std::snprintf(buf, sizeof buf, "0x%08x", words[w]);
        out += (out.empty() ? "" : ",") + std::string(buf);
    }
    return out;
}

std::string sets(int first, int last, int numa_first, int numa_last) {
    return "cpuset=\"" + mask(first, last) + "\" complete_cpuset=\"" + mask(first, last) + "\" nodeset=\"" +
           mask(numa_first, numa_last) + "\" complete_nodeset=\"" + mask(numa_first, numa_last) + "\"";
}

// One PCI GPU: a CUDA and an OpenCL OS device (one physical GPU, so one
// gpu vertex), on PCI bus `bus`.
std::string pci_gpu(int bus, int n) {
    char busid[32];
    std::snprintf(busid, sizeof busid, "0000:%02x:00.0", bus);
    return std::string("<object type=\"PCIDev\" pci_busid=\"") + busid +
           "\" pci_type=\"0302 [10de:1db4] [10de:1212] a1\">"
           "<object type=\"OSDev\" name=\"cuda" + std::to_string(n) + "\" subtype=\"CUDA\" osdev_type=\"5\"/>"
           "<object type=\"OSDev\" name=\"opencl0d" + std::to_string(n) + "\" subtype=\"OpenCL\" osdev_type=\"5\"/>"
           "</object>";
}

std::string bridge(const std::string& devices) {
    return "<object type=\"Bridge\" bridge_type=\"0-1\" depth=\"0\" bridge_pci=\"0000:[00-ff]\">" + devices +
           "</object>";
}

// host "gpu5": `packages` packages of `l3s` L3 caches of `cores` cores of
// 2 PUs, a NUMA node per package, `package_gpus` GPUs per package and
// `machine_gpus` on the machine. Bus numbers run against the tree order,
// so gpu ids (PCI bus order) differ from the creation order.
std::string gpu_machine(int packages, int l3s, int cores, int package_gpus, int machine_gpus) {
    const int pus = packages * l3s * cores * 2;
    int bus = packages * package_gpus + machine_gpus + 1, gpu = 0, pu = 0;
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
                    "<topology version=\"2.0\">\n<object type=\"Machine\" os_index=\"0\" " +
                    sets(0, pus - 1, 0, packages - 1) + " allowed_cpuset=\"" + mask(0, pus - 1) +
                    "\" allowed_nodeset=\"" + mask(0, packages - 1) + "\">\n<info name=\"HostName\" value=\"gpu5\"/>\n";
    for (int p = 0; p < packages; ++p) {
        int first = pu, last = pu + l3s * cores * 2 - 1;
        x += "<object type=\"Package\" os_index=\"" + std::to_string(p) + "\" " + sets(first, last, p, p) + ">\n";
        x += "<object type=\"NUMANode\" os_index=\"" + std::to_string(p) + "\" " + sets(first, last, p, p) +
             " local_memory=\"8589934592\"/>\n";
        for (int l = 0; l < l3s; ++l) {
            x += "<object type=\"L3Cache\" " + sets(pu, pu + cores * 2 - 1, p, p) +
                 " cache_size=\"8388608\" depth=\"3\" cache_linesize=\"64\" cache_associativity=\"16\" "
                 "cache_type=\"0\">";
            for (int c = 0; c < cores; ++c, pu += 2) {
                x += "<object type=\"Core\" os_index=\"" + std::to_string(pu / 2) + "\" " + sets(pu, pu + 1, p, p) +
                     "><object type=\"PU\" os_index=\"" + std::to_string(pu) + "\" " + sets(pu, pu, p, p) +
                     "/><object type=\"PU\" os_index=\"" + std::to_string(pu + 1) + "\" " +
                     sets(pu + 1, pu + 1, p, p) + "/></object>";
            }
            x += "</object>\n";
        }
        std::string gpus;
        for (int g = 0; g < package_gpus; ++g) gpus += pci_gpu(bus--, gpu++);
        if (!gpus.empty()) x += bridge(gpus);
        x += "</object>\n";
    }
    std::string gpus;
    for (int g = 0; g < machine_gpus; ++g) gpus += pci_gpu(bus--, gpu++);
    if (!gpus.empty()) x += bridge(gpus);
    return x + "</object>\n</topology>\n";
}

struct Machine {
    std::string name, xml;
};

std::vector<Machine> machines() {
    std::vector<Machine> out;
    for (const char* s : {"pack:2 core:4 pu:2", "pack:2 l3:2 core:2 pu:1", "pack:2 numa:2 l3:2 core:3 pu:2",
                          "group:2 pack:2 core:2 pu:1", "pack:3 l2:2 core:2 pu:1", "core:6 pu:2"})
        out.push_back({s, with_host_name(s)});
    out.push_back({"gpus on packages", gpu_machine(2, 2, 3, 2, 0)});
    out.push_back({"gpus on the machine", gpu_machine(2, 1, 4, 0, 3)});
    out.push_back({"gpus on both", gpu_machine(2, 2, 2, 1, 2)});
    const std::string shared = RQ_SHARED_DIR "/conformance/data/hwloc-data/001N/";
    for (const char* f : {"amd_gpu/corona11.xml", "node_local_storage/lassen/0.xml",
                          "node_local_storage/catalyst/0.xml", "node_local_storage/corona/0.xml"}) {
        std::ifstream in(shared + f);
        if (!in) continue;
        std::stringstream text;
        text << in.rdbuf();
        out.push_back({f, text.str()});
    }
    return out;
}

// ---- matching --------------------------------------------------------------------

struct Loaded {
    ResourceGraph graph;
    ScheduleStore store;
    std::unique_ptr<MatchPolicy> policy;
    std::unique_ptr<DfuTraverser> traverser;
    SimpleWriter writer{false};

    Loaded(const std::string& xml, const std::string& allowlist, const std::string& policy_name) {
        LoadRequest request;
        request.format = "hwloc";
        request.path = "machine.xml";
        request.text = xml;
        request.allowlist = allowlist;
        std::vector<std::string> warnings;
        Status s = load_graph(request, graph, &warnings);
        EXPECT_TRUE(s.ok()) << s.message();
        graph.types().freeze();
        auto made = make_policy(policy_name);
        EXPECT_TRUE(made.ok());
        policy = std::move(*made);
        TraverserConfig config;
        config.subsystems = {kContainment};
        auto t = DfuTraverser::create(graph, store, *policy, config);
        EXPECT_TRUE(t.ok());
        traverser = std::move(*t);
    }

    size_t count(const char* type) const {
        TypeId t = graph.types().find(type);
        return t == kNoId ? 0 : graph.by_type(t).size();
    }

    // "<code> at=<t> <sorted exclusive cores and gpus>"
    std::string run(const std::string& yaml, MatchOp op, JobId id) {
        auto js = parse_jobspec(yaml, graph.types());
        EXPECT_TRUE(js.ok());
        if (!js.ok()) return "bad jobspec";
        MatchResult r = traverser->run(*js, op, id, writer);
        std::ostringstream text;
        (void)writer.flush(text);
        std::vector<std::string> names = Matcher::exclusive_names(text.str());
        std::sort(names.begin(), names.end());
        std::string line = std::string(errc_text(r.code)) + " at=" + std::to_string(r.at);
        for (const std::string& n : names)  // the cores and gpus (a *nodex node takes the rest too)
            if (n.rfind("core", 0) == 0 || n.rfind("gpu", 0) == 0) line += " " + n;
        return line;
    }
};

std::string node_slot(int slots, int cores, int gpus) {
    std::string members;
    if (cores > 0) members += "          - type: core\n            count: " + std::to_string(cores) + "\n";
    if (gpus > 0) members += "          - type: gpu\n            count: " + std::to_string(gpus) + "\n";
    return jobspec_yaml("  - type: node\n    count: 1\n    with:\n      - type: slot\n        count: " +
                        std::to_string(slots) + "\n        label: s\n        with:\n" + members);
}

const char* const kPolicies[] = {"first", "firstnodex", "high", "low", "hinode", "lonode",
                                 "hinodex", "lonodex", "locality", "variation"};

// Runs the same pseudo-random request sequences on both loads (one per
// seed, each from an idle machine); returns the number of steps that
// allocated or reserved something.
int compare(const Machine& m, const std::string& policy) {
    Loaded whole(m.xml, "", policy);
    Loaded flat(m.xml, "node,core,gpu", policy);
    const int cores = static_cast<int>(flat.count("core")), gpus = static_cast<int>(flat.count("gpu"));
    EXPECT_EQ(whole.count("core"), flat.count("core")) << m.name;
    EXPECT_GT(whole.graph.num_vertices(), flat.graph.num_vertices()) << m.name << ": nothing between node and core";
    const int packages = std::max<int>(1, static_cast<int>(whole.count("socket")));
    std::vector<int> sizes = {1, 1, 2, 3, cores / packages, cores / packages + 1, cores / 2, cores};
    JobId next = 1;
    int matched = 0;
    for (unsigned seed = 1; seed <= 3; ++seed) {
        std::mt19937 rng(seed);
        std::vector<JobId> live;
        for (int step = 0; step < 40; ++step) {
            unsigned dice = rng() % 100;
            if (dice < 20 && !live.empty()) {
                size_t i = rng() % live.size();
                EXPECT_TRUE(whole.traverser->cancel(live[i]).ok());
                EXPECT_TRUE(flat.traverser->cancel(live[i]).ok());
                live.erase(live.begin() + static_cast<long>(i));
                continue;
            }
            MatchOp op = dice < 80   ? MatchOp::kAllocate
                         : dice < 95 ? MatchOp::kAllocateOrElseReserve
                                     : MatchOp::kSatisfiability;
            int slots = rng() % 4 == 0 ? 2 : 1;
            int n = std::max(1, sizes[rng() % sizes.size()] / slots);
            int g = gpus > 0 && rng() % 3 == 0 ? 1 : 0;
            if (g > 0 && rng() % 2 == 0) n = 0;  // node[1]->slot[1]->gpu[1]
            std::string yaml = node_slot(slots, n, g);
            std::string a = flat.run(yaml, op, next), b = whole.run(yaml, op, next);
            EXPECT_EQ(b, a) << m.name << " -P " << policy << " seed " << seed << " step " << step << ": slot["
                            << slots << "] core[" << n << "] gpu[" << g << "]";
            if (a != b) return matched;  // the rest would differ too
            if (a.rfind("Success", 0) == 0 && op != MatchOp::kSatisfiability) {
                live.push_back(next++);
                ++matched;
            }
        }
        for (JobId id : live) {
            EXPECT_TRUE(whole.traverser->cancel(id).ok());
            EXPECT_TRUE(flat.traverser->cancel(id).ok());
        }
    }
    return matched;
}

TEST(SlotBelowHwloc, ChoosesWhatTheFlatLoadChooses) {
    for (const Machine& m : machines())
        for (const char* policy : kPolicies)
            EXPECT_GT(compare(m, policy), 0) << m.name << " -P " << policy << ": nothing ever matched";
}

}  // namespace
}  // namespace rq
