#include "resource/hwloc_reader.h"

#include <gtest/gtest.h>
#include <hwloc.h>
#include <sched.h>
#include <sys/wait.h>

#include <csignal>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "resource/loader.h"

namespace rq {
namespace {

// ---- fixtures ------------------------------------------------------------------

// Attributes every object of the hand-written XML below repeats.
std::string sets(const char* cpuset) {
    return std::string("cpuset=\"") + cpuset + "\" complete_cpuset=\"" + cpuset +
           "\" nodeset=\"0x1\" complete_nodeset=\"0x1\"";
}

std::string core_with_pu(int index) {
    const char* masks[] = {"0x1", "0x2", "0x4", "0x8"};
    std::string os = std::to_string(index);
    return "<object type=\"Core\" os_index=\"" + os + "\" " + sets(masks[index]) + "><object type=\"PU\" os_index=\"" +
           os + "\" " + sets(masks[index]) + "/></object>";
}

std::string l3_cache(const char* cpuset, int first_core) {
    return "<object type=\"L3Cache\" " + sets(cpuset) +
           " cache_size=\"8388608\" depth=\"3\" cache_linesize=\"64\" cache_associativity=\"16\" cache_type=\"0\">" +
           core_with_pu(first_core) + core_with_pu(first_core + 1) + "</object>";
}

// PCI classes and vendors ("class [vendor:device] [subvendor:subdevice] rev").
const char kNvidia3D[] = "0302 [10de:1db4] [10de:1212] a1";
const char kAspeedVga[] = "0300 [1a03:2000] [1a03:2000] 41";  // a BMC's VGA chip
const char kNvme[] = "0108 [144d:a808] [144d:a801] 00";

// A PCI device holding the given OS devices.
std::string pci_device(const char* busid, const std::string& os_devices, const char* type = kNvidia3D) {
    return std::string("<object type=\"PCIDev\" pci_busid=\"") + busid + "\" pci_type=\"" + type + "\">" +
           os_devices + "</object>";
}

// One host "tiny7": a package with two L3 caches of two single-PU cores, a
// NUMA node, and a host bridge holding `io` (PCI devices).
std::string tiny_xml(const std::string& io) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
           "<topology version=\"2.0\">\n"
           "<object type=\"Machine\" os_index=\"0\" " + sets("0xf") +
           " allowed_cpuset=\"0xf\" allowed_nodeset=\"0x1\">\n"
           "<info name=\"HostName\" value=\"tiny7\"/>\n"
           "<object type=\"Package\" os_index=\"0\" " + sets("0xf") + ">\n"
           // NUMA nodes come first in the XML but are memory children: the
           // walk visits them after the caches.
           "<object type=\"NUMANode\" os_index=\"0\" " + sets("0xf") + " local_memory=\"8589934592\"/>\n" +
           l3_cache("0x3", 0) + l3_cache("0xc", 2) +
           "<object type=\"Bridge\" bridge_type=\"0-1\" depth=\"0\" bridge_pci=\"0000:[00-02]\">" + io +
           "</object>\n</object>\n</object>\n</topology>\n";
}

// The default I/O of tiny7: an NVMe drive, then a GPU and a NIC.
std::string tiny_io() {
    return pci_device("0000:01:00.0",
                      "<object type=\"OSDev\" name=\"nvme0n1\" osdev_type=\"0\">"
                      "<info name=\"Size\" value=\"3125627568\"/><info name=\"LinuxDeviceID\" value=\"259:0\"/>"
                      "</object>",
                      kNvme) +
           pci_device("0000:02:00.0",
                      "<object type=\"OSDev\" name=\"cuda1\" subtype=\"CUDA\" osdev_type=\"5\">"
                      "<info name=\"Backend\" value=\"CUDA\"/></object>"
                      "<object type=\"OSDev\" name=\"eth0\" osdev_type=\"2\"/>");
}

// The containment tree below the root, depth first in out-edge order: one
// line "<path> <type> id=<id> size=<size> rank=<rank>" per vertex.
std::vector<std::string> tree(const ResourceGraph& g) {
    std::vector<std::string> lines;
    std::vector<VertexId> stack{g.root(kContainment)};
    while (!stack.empty()) {
        VertexId v = stack.back();
        stack.pop_back();
        lines.push_back(std::string(g.path(v, kContainment)) + " " + g.type_name(v) + " id=" + std::to_string(g.id(v)) +
                        " size=" + std::to_string(g.size(v)) + " rank=" + std::to_string(g.rank(v)));
        std::vector<VertexId> children;
        for (EdgeId e : g.out(v)) children.push_back(g.target(e));
        stack.insert(stack.end(), children.rbegin(), children.rend());
    }
    return lines;
}

size_t count_of(const ResourceGraph& g, const char* type) {
    TypeId t = g.types().find(type);
    return t == kNoId ? 0 : g.by_type(t).size();
}

std::string error_of(const std::string& xml, const std::string& allowlist = "") {
    ResourceGraph g;
    Status s = read_hwloc_xml(xml, "in.xml", TypeAllowlist::parse(allowlist), g);
    return s.ok() ? "<ok>" : s.message();
}

// ---- the allow-list ----------------------------------------------------------------

TEST(HwlocAllowlist, Parse) {
    EXPECT_TRUE(TypeAllowlist().allows_everything());
    EXPECT_TRUE(TypeAllowlist::parse("").allows_everything());
    EXPECT_TRUE(TypeAllowlist::parse(" , ,").allows_everything());  // names no type

    auto list = TypeAllowlist::parse(" node, core ,,storage");
    EXPECT_FALSE(list.allows_everything());
    EXPECT_TRUE(list.allows("node"));
    EXPECT_TRUE(list.allows("core"));
    EXPECT_TRUE(list.allows("storage"));
    EXPECT_TRUE(list.allows("cluster"));  // always added
    EXPECT_FALSE(list.allows("socket"));
    EXPECT_FALSE(list.allows("Core"));  // case-sensitive
    EXPECT_FALSE(list.allows(" core"));
}

// ---- structure ---------------------------------------------------------------------

TEST(HwlocReader, TinyMachineStructure) {
    ResourceGraph g;
    ASSERT_TRUE(read_hwloc_xml(tiny_xml(tiny_io()), "tiny.xml", TypeAllowlist(), g).ok());
    // Normal children first (the caches), then memory (the NUMA node),
    // then I/O (storage, gpu); bridges, PCI devices and the NIC make no
    // vertex and their children move up to the socket.
    EXPECT_EQ(tree(g), (std::vector<std::string>{
                           "/cluster0 cluster id=0 size=1 rank=-1",
                           "/cluster0/tiny7 node id=7 size=1 rank=0",
                           "/cluster0/tiny7/socket0 socket id=0 size=1 rank=-1",
                           "/cluster0/tiny7/socket0/L3cache0 cache id=0 size=8192 rank=-1",
                           "/cluster0/tiny7/socket0/L3cache0/core0 core id=0 size=1 rank=-1",
                           "/cluster0/tiny7/socket0/L3cache0/core0/pu0 pu id=0 size=1 rank=-1",
                           "/cluster0/tiny7/socket0/L3cache0/core1 core id=1 size=1 rank=-1",
                           "/cluster0/tiny7/socket0/L3cache0/core1/pu1 pu id=1 size=1 rank=-1",
                           "/cluster0/tiny7/socket0/L3cache1 cache id=1 size=8192 rank=-1",
                           "/cluster0/tiny7/socket0/L3cache1/core2 core id=2 size=1 rank=-1",
                           "/cluster0/tiny7/socket0/L3cache1/core2/pu2 pu id=2 size=1 rank=-1",
                           "/cluster0/tiny7/socket0/L3cache1/core3 core id=3 size=1 rank=-1",
                           "/cluster0/tiny7/socket0/L3cache1/core3/pu3 pu id=3 size=1 rank=-1",
                           "/cluster0/tiny7/socket0/numanode0 numanode id=0 size=1 rank=-1",
                           "/cluster0/tiny7/socket0/storage0 storage id=0 size=3125 rank=-1",
                           // the only GPU of the host: id 0 (not cuda1's 1)
                           "/cluster0/tiny7/socket0/gpu0 gpu id=0 size=1 rank=-1",
                       }));
    // uniq_id is the creation index, the walk order.
    for (VertexId v = 0; v < g.num_vertices(); ++v) EXPECT_EQ(g.uniq_id(v), static_cast<int64_t>(v));
    EXPECT_EQ(g.root(kContainment), 0u);

    VertexId node = g.by_type(types::kNode).at(0);
    EXPECT_EQ(g.name(node), "tiny7");
    EXPECT_EQ(g.basename(node), "tiny");
    VertexId cache = g.by_type(g.types().find("cache")).at(0);
    EXPECT_EQ(g.basename(cache), "L3cache");
    VertexId storage = g.by_type(g.types().find("storage")).at(0);
    ASSERT_NE(g.properties(storage), nullptr);
    EXPECT_EQ(*g.properties(storage), (PropertyMap{{"LinuxDeviceID", "259:0"}}));
    EXPECT_EQ(g.at_path("/cluster0/tiny7/socket0/storage0"), std::vector<VertexId>{storage});
}

TEST(HwlocReader, SyntheticExportedTopology) {
    // hwloc builds and exports the XML itself: "node:1 package:2 core:2
    // pu:2" with a host name added to the machine.
    hwloc_topology_t topology;
    ASSERT_EQ(hwloc_topology_init(&topology), 0);
    ASSERT_EQ(hwloc_topology_set_synthetic(topology, "node:1 package:2 core:2 pu:2"), 0);
    ASSERT_EQ(hwloc_topology_load(topology), 0);
    ASSERT_EQ(hwloc_obj_add_info(hwloc_get_root_obj(topology), "HostName", "synth03"), 0);
    char* buffer = nullptr;
    int length = 0;
    ASSERT_EQ(hwloc_topology_export_xmlbuffer(topology, &buffer, &length, 0), 0);
    std::string xml(buffer);
    hwloc_free_xmlbuffer(topology, buffer);
    hwloc_topology_destroy(topology);

    ResourceGraph g;
    ASSERT_TRUE(read_hwloc_xml(xml, "synthetic", TypeAllowlist(), g).ok());
    EXPECT_EQ(count_of(g, "node"), 1u);
    EXPECT_EQ(count_of(g, "socket"), 2u);
    EXPECT_EQ(count_of(g, "core"), 4u);
    EXPECT_EQ(count_of(g, "pu"), 8u);
    EXPECT_EQ(count_of(g, "numanode"), 1u);  // a memory child of the machine
    EXPECT_EQ(g.at_path("/cluster0/synth03/socket1/core3/pu7").size(), 1u);
    EXPECT_EQ(g.at_path("/cluster0/synth03/numanode0").size(), 1u);
    VertexId node = g.by_type(types::kNode).at(0);
    EXPECT_EQ(g.id(node), 3);
    // numanode0 comes after both sockets: memory children follow normal ones.
    std::vector<std::string> node_children;
    for (EdgeId e : g.out(node)) node_children.emplace_back(g.name(g.target(e)));
    EXPECT_EQ(node_children, (std::vector<std::string>{"socket0", "socket1", "numanode0"}));
}

TEST(HwlocReader, AllowlistSkipsTypesButKeepsTheirChildren) {
    ResourceGraph g;
    ASSERT_TRUE(read_hwloc_xml(tiny_xml(tiny_io()), "tiny.xml", TypeAllowlist::parse("node,core,storage"), g).ok());
    EXPECT_EQ(tree(g), (std::vector<std::string>{
                           "/cluster0 cluster id=0 size=1 rank=-1",
                           "/cluster0/tiny7 node id=7 size=1 rank=0",
                           "/cluster0/tiny7/core0 core id=0 size=1 rank=-1",
                           "/cluster0/tiny7/core1 core id=1 size=1 rank=-1",
                           "/cluster0/tiny7/core2 core id=2 size=1 rank=-1",
                           "/cluster0/tiny7/core3 core id=3 size=1 rank=-1",
                           "/cluster0/tiny7/storage0 storage id=0 size=3125 rank=-1",
                       }));
    // Types never created are not even interned (jobspecs naming them are
    // rejected as unknown types).
    EXPECT_EQ(g.types().find("pu"), kNoId);
    EXPECT_EQ(g.types().find("cache"), kNoId);
    EXPECT_EQ(g.types().find("numanode"), kNoId);
}

TEST(HwlocReader, AllowlistWithoutNodeKeepsTheRank) {
    ResourceGraph g;
    ASSERT_TRUE(read_hwloc_xml(tiny_xml(tiny_io()), "tiny.xml", TypeAllowlist::parse("socket,gpu"), g).ok());
    EXPECT_EQ(tree(g), (std::vector<std::string>{
                           "/cluster0 cluster id=0 size=1 rank=-1",
                           "/cluster0/socket0 socket id=0 size=1 rank=0",
                           "/cluster0/socket0/gpu0 gpu id=0 size=1 rank=-1",
                       }));
}

// An OS device element: `kind` is hwloc 2's subtype (nullptr: none; hwloc
// 1 exports only have the Backend info, which is written too).
std::string osdev(const char* name, int osdev_type, const char* kind, bool with_subtype = true) {
    std::string s = std::string("<object type=\"OSDev\" name=\"") + name + "\"";
    if (kind != nullptr && with_subtype) s += std::string(" subtype=\"") + kind + "\"";
    s += " osdev_type=\"" + std::to_string(osdev_type) + "\">";
    if (kind != nullptr) s += std::string("<info name=\"Backend\" value=\"") + kind + "\"/>";
    return s + "</object>";
}

// The gpu vertices of `io` under tiny7 (allow-list node,gpu).
std::vector<std::string> gpus_of(const std::string& io) {
    ResourceGraph g;
    Status s = read_hwloc_xml(tiny_xml(io), "gpus.xml", TypeAllowlist::parse("node,gpu"), g);
    if (!s.ok()) return {s.message()};
    auto lines = tree(g);
    lines.erase(lines.begin(), lines.begin() + 2);  // cluster0, tiny7
    return lines;
}

TEST(HwlocReader, OneGpuPerPciDevice) {
    // One card seen by CUDA, OpenCL, NVML and LevelZero (plus its DRM
    // card, never a GPU): one vertex, standing where its first view is.
    std::string card = osdev("card0", 1, nullptr) + osdev("cuda0", 5, "CUDA") + osdev("opencl0d0", 5, "OpenCL") +
                       osdev("nvml0", 1, "NVML") + osdev("ze0", 5, "LevelZero");
    EXPECT_EQ(gpus_of(pci_device("0000:02:00.0", card)),
              (std::vector<std::string>{"/cluster0/tiny7/gpu0 gpu id=0 size=1 rank=-1"}));
    // hwloc 1 exports: the backend only in the Backend info.
    std::string old_card = osdev("cuda0", 5, "CUDA", false) + osdev("opencl0d0", 5, "OpenCL", false);
    EXPECT_EQ(gpus_of(pci_device("0000:02:00.0", old_card)),
              (std::vector<std::string>{"/cluster0/tiny7/gpu0 gpu id=0 size=1 rank=-1"}));
}

TEST(HwlocReader, GpusOfDifferentKindsAreNumberedInPciBusOrder) {
    // An AMD card seen by OpenCL at bus 05, an NVIDIA one seen by CUDA at
    // bus 03 (listed first by hwloc... or not: ids follow the bus, not
    // hwloc's order nor the device names).
    std::string io = pci_device("0000:05:00.0", osdev("opencl0d0", 5, "OpenCL") + osdev("rsmi0", 1, "RSMI")) +
                     pci_device("0000:03:00.0", osdev("cuda0", 5, "CUDA")) +
                     pci_device("0000:04:00.0", osdev("card1", 1, nullptr) + osdev("eth0", 2, nullptr), kAspeedVga);
    EXPECT_EQ(gpus_of(io), (std::vector<std::string>{
                               "/cluster0/tiny7/gpu1 gpu id=1 size=1 rank=-1",  // bus 05
                               "/cluster0/tiny7/gpu0 gpu id=0 size=1 rank=-1",  // bus 03
                           }));
}

TEST(HwlocReader, NvmlOnlyGpus) {
    // A DGX-2 exports its V100s as NVML devices only.
    std::string io;
    for (int i = 0; i < 3; ++i) {
        std::string bus = "0000:0" + std::to_string(i + 1) + ":00.0";
        io += pci_device(bus.c_str(), osdev(("nvml" + std::to_string(2 - i)).c_str(), 1, "NVML"));
    }
    EXPECT_EQ(gpus_of(io), (std::vector<std::string>{
                               "/cluster0/tiny7/gpu0 gpu id=0 size=1 rank=-1",
                               "/cluster0/tiny7/gpu1 gpu id=1 size=1 rank=-1",
                               "/cluster0/tiny7/gpu2 gpu id=2 size=1 rank=-1",
                           }));
}

TEST(HwlocReader, RsmiOnlyGpus) {
    std::string io = pci_device("0000:c1:00.0", osdev("rsmi1", 1, "RSMI")) +
                     pci_device("0000:81:00.0", osdev("rsmi0", 1, "RSMI"));
    EXPECT_EQ(gpus_of(io), (std::vector<std::string>{
                               "/cluster0/tiny7/gpu1 gpu id=1 size=1 rank=-1",
                               "/cluster0/tiny7/gpu0 gpu id=0 size=1 rank=-1",
                           }));
}

TEST(HwlocReader, GpuWithoutPciDeviceIsItsOwnGpu) {
    // Co-processors hanging from no PCI device (a bridge's direct child
    // here) each make one GPU, numbered after the PCI ones in hwloc order.
    std::string io = osdev("ve0", 5, "VectorEngine") + osdev("ve1", 5, "VectorEngine") +
                     pci_device("0000:09:00.0", osdev("cuda0", 5, "CUDA"));
    EXPECT_EQ(gpus_of(io), (std::vector<std::string>{
                               "/cluster0/tiny7/gpu1 gpu id=1 size=1 rank=-1",
                               "/cluster0/tiny7/gpu2 gpu id=2 size=1 rank=-1",
                               "/cluster0/tiny7/gpu0 gpu id=0 size=1 rank=-1",
                           }));
}

TEST(HwlocReader, NotEveryGpuDeviceIsAGpu) {
    // DRM cards and render nodes (also a BMC's VGA chip), networks,
    // DMA engines: no vertex.
    std::string io = pci_device("0000:02:00.0", osdev("card0", 1, nullptr) + osdev("renderD128", 1, "DRM") +
                                                    osdev("dma0chan0", 4, "DMA") + osdev("eth0", 2, nullptr),
                                kAspeedVga);
    EXPECT_EQ(gpus_of(io), std::vector<std::string>{});
}

TEST(HwlocReader, GpuCardsNoOsDeviceShowsAreGpus) {
    // Without a CUDA/NVML/RSMI plugin hwloc shows a GPU only as its PCI
    // device: a display controller (class 0x03xx) of NVIDIA, AMD or Intel
    // is a gpu, numbered with the others in bus order; a DRM card under it
    // changes nothing. A BMC's VGA chip, an NVIDIA audio function, a
    // storage controller are not GPUs. One gpu per card still: the card
    // at bus 06 seen by CUDA is gpu1 once.
    std::string io = pci_device("0000:07:00.0", "", "0380 [1002:66a1] [1002:081e] 06") +  // AMD MI50
                     pci_device("0000:06:00.0", osdev("cuda0", 5, "CUDA")) +
                     pci_device("0000:05:00.0", osdev("card0", 1, nullptr), "0300 [8086:56c0] [8086:4905] 08") +
                     pci_device("0000:03:00.0", "", kAspeedVga) +
                     pci_device("0000:02:00.0", "", "0403 [10de:22ba] [10de:0000] a1") +  // audio
                     pci_device("0000:01:00.0", "", kNvme) + pci_device("0000:08:00.0", "");
    EXPECT_EQ(gpus_of(io), (std::vector<std::string>{
                               "/cluster0/tiny7/gpu2 gpu id=2 size=1 rank=-1",  // bus 07
                               "/cluster0/tiny7/gpu1 gpu id=1 size=1 rank=-1",  // bus 06
                               "/cluster0/tiny7/gpu0 gpu id=0 size=1 rank=-1",  // bus 05
                               "/cluster0/tiny7/gpu3 gpu id=3 size=1 rank=-1",  // bus 08
                           }));
}

// The real H200 node (../shared/machines/README): hwloc saw its GPU only
// as "PCI 00:06.0 (3D)", vendor NVIDIA, with no OS device.
TEST(HwlocReader, H200NodeHasItsGpu) {
    std::ifstream in(RQ_SHARED_DIR "/machines/h200-node-wholeio.xml");
    if (!in) GTEST_SKIP() << "h200-node-wholeio.xml is absent";
    std::stringstream text;
    text << in.rdbuf();
    ResourceGraph g;
    ASSERT_TRUE(read_hwloc_xml(text.str(), "h200.xml", TypeAllowlist(), g).ok());
    ASSERT_EQ(count_of(g, "gpu"), 1u);
    EXPECT_EQ(g.id(g.by_type(g.types().find("gpu")).at(0)), 0);
    EXPECT_EQ(count_of(g, "core"), 16u);
}

// The H200 node as hwloc 2.9 saw it live with the NVIDIA driver's OpenCL
// ICD (captured on that node, t/data/hwloc/h200-live-opencl.xml): the
// card is a bare PCI device (class 0x0302) and its OpenCL device hangs
// beside it, not under it. One physical card is one gpu (docs/hwloc.md
// "GPUs"), not one for the card and one for the OpenCL view.
TEST(HwlocReader, ALooseOpenClDeviceIsTheBareCardItShows) {
    std::ifstream in(RQ_SOURCE_DIR "/t/data/hwloc/h200-live-opencl.xml");
    ASSERT_TRUE(in) << "t/data/hwloc/h200-live-opencl.xml";
    std::stringstream text;
    text << in.rdbuf();
    ResourceGraph g;
    ASSERT_TRUE(read_hwloc_xml(text.str(), "h200-live.xml", TypeAllowlist(), g).ok());
    EXPECT_EQ(count_of(g, "gpu"), 1u);
    EXPECT_EQ(count_of(g, "core"), 16u);
}

// Two bare cards and two backends' loose devices (OpenCL and CUDA, two
// GPUs each): the k-th device of each backend is the k-th card, so two
// gpus, numbered 0 and 1.
TEST(HwlocReader, LooseDevicesOfTwoBackendsBindToTheBareCardsInOrder) {
    auto loose = [](const char* name, const char* subtype, int osdev_type) {
        return std::string("<object type=\"OSDev\" name=\"") + name + "\" subtype=\"" + subtype +
               "\" osdev_type=\"" + std::to_string(osdev_type) + "\"/>";
    };
    std::string io = pci_device("0000:01:00.0", "") + pci_device("0000:02:00.0", "") +
                     loose("opencl0d0", "OpenCL", 5) + loose("opencl0d1", "OpenCL", 5) +
                     loose("cuda0", "CUDA", 5) + loose("cuda1", "CUDA", 5);
    ResourceGraph g;
    ASSERT_TRUE(read_hwloc_xml(tiny_xml(io), "loose.xml", TypeAllowlist::parse("gpu"), g).ok());
    EXPECT_EQ(count_of(g, "gpu"), 2u);
    std::vector<int64_t> ids;
    for (auto v : g.by_type(g.types().find("gpu"))) ids.push_back(g.id(v));
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(ids, (std::vector<int64_t>{0, 1}));
}

TEST(HwlocReader, StorageSizes) {
    std::string io = pci_device("0000:01:00.0",
                                "<object type=\"OSDev\" name=\"sdc\" osdev_type=\"0\">"
                                "<info name=\"Size\" value=\"195360984\"/></object>"
                                "<object type=\"OSDev\" name=\"sdd\" osdev_type=\"0\">"
                                "<info name=\"Size\" value=\"999999\"/></object>");
    ResourceGraph g;
    ASSERT_TRUE(read_hwloc_xml(tiny_xml(io), "disks.xml", TypeAllowlist::parse("storage"), g).ok());
    // Sizes are GB (10^6 KiB) rounded down; no LinuxDeviceID, no property.
    EXPECT_EQ(tree(g), (std::vector<std::string>{
                           "/cluster0 cluster id=0 size=1 rank=-1",
                           "/cluster0/storage0 storage id=0 size=195 rank=0",
                           "/cluster0/storage1 storage id=1 size=0 rank=0",
                       }));
    EXPECT_EQ(g.properties(g.by_type(g.types().find("storage")).at(0)), nullptr);
}

TEST(HwlocReader, StorageWithoutASizeIsLeftOutWithAWarning) {
    auto with_disks = [](const char* inner) {
        return tiny_xml(pci_device("0000:01:00.0",
                                   std::string("<object type=\"OSDev\" name=\"sda\" osdev_type=\"0\">") + inner +
                                       "</object><object type=\"OSDev\" name=\"sdb\" osdev_type=\"0\">"
                                       "<info name=\"Size\" value=\"2000000\"/></object>"));
    };
    auto load = [](const std::string& xml, const char* allowlist, std::vector<std::string>& warnings) {
        ResourceGraph g;
        Status s = read_hwloc_xml(xml, "in.xml", TypeAllowlist::parse(allowlist), g, &warnings);
        EXPECT_TRUE(s.ok()) << s.message();
        return tree(g);
    };
    std::vector<std::string> warnings;
    // sda is left out, sdb (the second block device, L#1) and the rest load.
    EXPECT_EQ(load(with_disks(""), "node,core,storage", warnings), (std::vector<std::string>{
                                                                       "/cluster0 cluster id=0 size=1 rank=-1",
                                                                       "/cluster0/tiny7 node id=7 size=1 rank=0",
                                                                       "/cluster0/tiny7/core0 core id=0 size=1 rank=-1",
                                                                       "/cluster0/tiny7/core1 core id=1 size=1 rank=-1",
                                                                       "/cluster0/tiny7/core2 core id=2 size=1 rank=-1",
                                                                       "/cluster0/tiny7/core3 core id=3 size=1 rank=-1",
                                                                       "/cluster0/tiny7/storage1 storage id=1 size=2 rank=-1",
                                                                   }));
    EXPECT_EQ(warnings, std::vector<std::string>{
                            "block device sda at PCI 0000:01:00.0 has no Size: left out (no storage vertex for it)"});
    warnings.clear();
    load(with_disks("<info name=\"Size\" value=\"lots\"/>"), "storage", warnings);
    EXPECT_EQ(warnings, std::vector<std::string>{"block device sda at PCI 0000:01:00.0 has Size \"lots\", not a number "
                                                 "of KiB: left out (no storage vertex for it)"});
    // Without storage in the allow-list the disk does not matter.
    warnings.clear();
    load(with_disks(""), "node,core", warnings);
    EXPECT_EQ(warnings, std::vector<std::string>{});
    // The loader passes them on.
    LoadRequest request;
    request.format = "hwloc";
    request.path = "in.xml";
    request.text = with_disks("");
    ResourceGraph g;
    ASSERT_TRUE(load_graph(request, g, &warnings).ok());
    EXPECT_EQ(warnings.size(), 1u);
}

TEST(HwlocReader, MachineWithoutHostNameMakesNoNode) {
    hwloc_topology_t topology;
    ASSERT_EQ(hwloc_topology_init(&topology), 0);
    ASSERT_EQ(hwloc_topology_set_synthetic(topology, "package:1 core:2 pu:1"), 0);
    ASSERT_EQ(hwloc_topology_load(topology), 0);
    char* buffer = nullptr;
    int length = 0;
    ASSERT_EQ(hwloc_topology_export_xmlbuffer(topology, &buffer, &length, 0), 0);
    std::string xml(buffer);
    hwloc_free_xmlbuffer(topology, buffer);
    hwloc_topology_destroy(topology);

    ResourceGraph g;
    ASSERT_TRUE(read_hwloc_xml(xml, "anonymous", TypeAllowlist::parse("node,core"), g).ok());
    EXPECT_EQ(tree(g), (std::vector<std::string>{
                           "/cluster0 cluster id=0 size=1 rank=-1",
                           "/cluster0/core0 core id=0 size=1 rank=-1",
                           "/cluster0/core1 core id=1 size=1 rank=-1",
                       }));
}

// ---- errors ----------------------------------------------------------------------

TEST(HwlocReader, MalformedXmlFailsWithAMessage) {
    // hwloc's minimalistic parser says nothing more than "failed" about
    // text that is not XML it can read.
    const std::string cannot_load = "hwloc_reader: in.xml: hwloc cannot load it: malformed XML or not an hwloc topology";
    EXPECT_EQ(error_of("not xml at all"), cannot_load);
    EXPECT_EQ(error_of("<topology></topology>"), cannot_load);
    EXPECT_EQ(error_of("{\"graph\": {}}"), cannot_load);  // a JGF file given to -f hwloc
    std::string good = tiny_xml(tiny_io());
    EXPECT_EQ(error_of(good.substr(0, good.size() / 2)), cannot_load);  // truncated
    std::string bogus = good;
    bogus.replace(bogus.find("\"Package\""), 9, "\"Bogus\"");
    // hwloc's own reasons, one line, without hwloc's "xmlbuffer:" prefix.
    EXPECT_EQ(error_of(bogus), "hwloc_reader: in.xml: hwloc cannot load it: unrecognized object type string Bogus");
    std::string v3 = good;
    v3.replace(v3.find("version=\"2.0\""), 15, "version=\"3.0\"");
    EXPECT_EQ(error_of(v3), "hwloc_reader: in.xml: hwloc cannot load it: cannot import XML version 3.0 > 2");

    EXPECT_EQ(error_of(""), "hwloc_reader: in.xml: the file is empty");
    EXPECT_EQ(error_of(" \n\t\n"), "hwloc_reader: in.xml: the file is empty");
    EXPECT_EQ(error_of(std::string("<topology>\0</topology>", 22)),
              "hwloc_reader: in.xml: the file holds a NUL byte, it is not XML text");
}

// Under AddressSanitizer a crash in the child is reported and exits with
// status 1 instead of dying by signal.
#if defined(__SANITIZE_ADDRESS__)
#define RQ_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RQ_UNDER_ASAN 1
#endif
#endif

TEST(HwlocReader, XmlThatCrashesHwlocIsAnError) {
    // hwloc 2.9 dereferences null on an object with a cpuset but no
    // complete_cpuset; the reader loads user XML in a child process first,
    // so this must come back as an error (or, with a hwloc that copes, as
    // a graph), never take the process down.
    std::string xml = tiny_xml(tiny_io());
    size_t core = xml.find("<object type=\"Core\" os_index=\"3\"");
    ASSERT_NE(core, std::string::npos);
    const std::string attribute = " complete_cpuset=\"";
    size_t start = xml.find(attribute, core);
    size_t end = xml.find('"', start + attribute.size()) + 1;  // past the closing quote
    xml.erase(start, end - start);

    std::string message = error_of(xml);
    if (message != "<ok>") {
        EXPECT_EQ(message.rfind("hwloc_reader: in.xml: hwloc ", 0), 0u) << message;
    }
#if HWLOC_API_VERSION == 0x00020800 && !defined(RQ_UNDER_ASAN)  // hwloc 2.8 and 2.9
    EXPECT_EQ(message, "hwloc_reader: in.xml: hwloc crashed loading it (Segmentation fault): malformed hwloc topology");
#endif
}

// A wait status as waitpid() reports a normal exit.
int exited(int code) { return (code & 0xff) << 8; }

TEST(HwlocReader, ChildVerdicts) {
    EXPECT_TRUE(hwloc_child_verdict(exited(0), "", "f.xml").ok());
    // hwloc's reason: its last specific line, without the generic ones
    // nor the "xmlbuffer:" prefix.
    EXPECT_EQ(hwloc_child_verdict(exited(71),
                                  "xmlbuffer: ignoring unknown object attribute foo\n"
                                  "xmlbuffer: invalid object Core P#3 with some missing cpusets\n"
                                  "Failed to parse XML input with the minimalistic parser. If it was not\n"
                                  "generated by hwloc, try enabling full XML support with libxml2.\n"
                                  "xmlbuffer: XML component discovery failed.\n",
                                  "f.xml")
                  .message(),
              "hwloc_reader: f.xml: hwloc cannot load it: invalid object Core P#3 with some missing cpusets");
    EXPECT_EQ(hwloc_child_verdict(exited(71), "", "f.xml").message(),
              "hwloc_reader: f.xml: hwloc cannot load it: malformed XML or not an hwloc topology");
    // A sanitizer ends a crashing child with status 1: a crash, not "cannot load".
    EXPECT_EQ(hwloc_child_verdict(exited(1), "==12==ERROR: AddressSanitizer: SEGV on unknown address\n", "f.xml")
                  .message(),
              "hwloc_reader: f.xml: hwloc crashed loading it (the loader process exited with status 1: "
              "==12==ERROR: AddressSanitizer: SEGV on unknown address)");
    EXPECT_EQ(hwloc_child_verdict(exited(1), "", "f.xml").message(),
              "hwloc_reader: f.xml: hwloc crashed loading it (the loader process exited with status 1)");
    EXPECT_EQ(hwloc_child_verdict(SIGSEGV, "", "f.xml").message(),  // killed by the signal
              "hwloc_reader: f.xml: hwloc crashed loading it (Segmentation fault): malformed hwloc topology");
}

TEST(HwlocReader, HostNumberBeyondInt64Fails) {
    std::string xml = tiny_xml(tiny_io());
    xml.replace(xml.find("tiny7"), 5, "tiny99999999999999999999");
    EXPECT_EQ(error_of(xml),
              "hwloc_reader: in.xml: split_hostname: the number of host tiny99999999999999999999 does not fit in "
              "int64.");
}

TEST(HwlocReader, TopologyLargerThanTheSharedRoomIsParsedHere) {
    ResourceGraph reference;
    ASSERT_TRUE(read_hwloc_xml(tiny_xml(tiny_io()), "tiny.xml", TypeAllowlist(), reference).ok());
    set_hwloc_shared_room_for_tests(4096);  // one page: hwloc's copy overflows into the guard
    ResourceGraph g;
    Status s = read_hwloc_xml(tiny_xml(tiny_io()), "tiny.xml", TypeAllowlist(), g);
    set_hwloc_shared_room_for_tests(0);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(tree(g), tree(reference));
    // A refusal is still hwloc's own.
    set_hwloc_shared_room_for_tests(4096);
    std::string message = error_of("not xml");
    set_hwloc_shared_room_for_tests(0);
    EXPECT_EQ(message, "hwloc_reader: in.xml: hwloc cannot load it: malformed XML or not an hwloc topology");
}

TEST(HwlocReader, LoaderDispatch) {
    LoadRequest request;
    request.format = "hwloc";
    request.path = "tiny.xml";
    request.text = tiny_xml(tiny_io());
    request.allowlist = "node,socket,core";
    ResourceGraph g;
    ASSERT_TRUE(load_graph(request, g).ok());
    EXPECT_EQ(g.nodes_up, 1);
    EXPECT_TRUE(g.types().frozen());
    EXPECT_EQ(count_of(g, "core"), 4u);
    EXPECT_EQ(count_of(g, "pu"), 0u);

    request.text = "garbage";
    ResourceGraph bad;
    Status s = load_graph(request, bad);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(), "hwloc_reader: tiny.xml: hwloc cannot load it: malformed XML or not an hwloc topology");
}

// ---- the local machine ------------------------------------------------------------

TEST(HwlocReader, LocalMachine) {
    LoadRequest request;
    request.format = "hwloc";
    request.local_machine = true;  // no text: detect this machine
    ResourceGraph g;
    Status loaded = load_graph(request, g);
    ASSERT_TRUE(loaded.ok()) << loaded.message();

    // hwloc's own view of this machine, loaded independently.
    hwloc_topology_t topology;
    ASSERT_EQ(hwloc_topology_init(&topology), 0);
    ASSERT_EQ(hwloc_topology_load(topology), 0);
    int hwloc_cores = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE);
    int hwloc_pus = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PU);
    hwloc_topology_destroy(topology);
    if (hwloc_cores <= 0) GTEST_SKIP() << "hwloc reports no cores on this machine";

    size_t cores = count_of(g, "core");
    size_t pus = count_of(g, "pu");
    EXPECT_EQ(cores, static_cast<size_t>(hwloc_cores));
    EXPECT_EQ(pus, static_cast<size_t>(hwloc_pus));

    // Against the operating system: the CPUs we may run on (what `nproc`
    // prints) are PUs of the graph, and no more PUs than online CPUs.
    // With SMT a core has several PUs, so cores alone may be fewer than
    // nproc: what must hold is that the cores, each with at most its PU
    // children, account for every CPU nproc counts.
    cpu_set_t affinity;
    ASSERT_EQ(sched_getaffinity(0, sizeof affinity, &affinity), 0);
    size_t nproc = static_cast<size_t>(CPU_COUNT(&affinity));
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    ASSERT_GT(online, 0);
    EXPECT_GE(cores, 1u);
    EXPECT_LE(cores, pus);
    EXPECT_GE(pus, nproc);
    EXPECT_LE(pus, static_cast<size_t>(online));
    size_t pus_under_cores = 0, max_pus_per_core = 0;
    for (VertexId core : g.by_type(types::kCore)) {
        size_t n = 0;
        for (EdgeId e : g.out(core)) n += g.type_name(g.target(e)) == "pu";
        pus_under_cores += n;
        max_pus_per_core = std::max(max_pus_per_core, n);
    }
    EXPECT_EQ(pus_under_cores, pus);
    EXPECT_GE(cores * max_pus_per_core, nproc);

    // One node, named after this host, holding every core.
    ASSERT_EQ(count_of(g, "node"), 1u);
    EXPECT_EQ(g.nodes_up, 1);
    char host[256] = {};
    ASSERT_EQ(gethostname(host, sizeof host - 1), 0);
    VertexId node = g.by_type(types::kNode).at(0);
    EXPECT_EQ(g.name(node), host);
    for (VertexId core : g.by_type(types::kCore))
        EXPECT_EQ(g.path(core, kContainment).rfind(std::string("/cluster0/") + host + "/", 0), 0u);
}

TEST(HwlocReader, LocalMachineAllowlist) {
    ResourceGraph g;
    ASSERT_TRUE(read_hwloc_local(TypeAllowlist::parse("node,core"), g).ok());
    EXPECT_EQ(count_of(g, "node"), 1u);
    EXPECT_EQ(count_of(g, "pu"), 0u);
    EXPECT_EQ(count_of(g, "socket"), 0u);
    VertexId node = g.by_type(types::kNode).at(0);
    EXPECT_EQ(g.out_degree(node), count_of(g, "core"));  // cores hang directly off the node
}

}  // namespace
}  // namespace rq
