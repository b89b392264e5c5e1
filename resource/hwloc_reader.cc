#include "resource/hwloc_reader.h"

#include <hwloc.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <csignal>
#include <cstring>
#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "resource/hwloc_child.h"
#include "resource/rv1exec_reader.h"  // split_hostname

namespace rq {

// ---- allow-list ----------------------------------------------------------------

TypeAllowlist TypeAllowlist::parse(std::string_view text) {
    TypeAllowlist list;
    while (!text.empty()) {
        size_t comma = text.find(',');
        std::string_view item = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
        size_t first = item.find_first_not_of(" \t");
        if (first == std::string_view::npos) continue;  // empty item
        size_t last = item.find_last_not_of(" \t");
        list.types_.emplace(item.substr(first, last - first + 1));
    }
    if (!list.types_.empty()) list.types_.emplace("cluster");
    return list;
}

bool TypeAllowlist::allows(std::string_view type) const {
    return types_.empty() || types_.find(type) != types_.end();
}

namespace {

// ---- what an hwloc object becomes ------------------------------------------------

// The vertex an hwloc object becomes.
struct HwlocResource {
    HwlocResource(const char* type, std::string basename, int64_t id, std::string name = {})
        : type(type), basename(std::move(basename)), name(std::move(name)), id(id) {}

    const char* type;  // graph type name
    std::string basename;
    std::string name;  // empty: basename + id
    int64_t id;
    int64_t size = 1;
    PropertyMap properties;
};

const char* info(hwloc_obj_t obj, const char* key) { return hwloc_obj_get_info_by_name(obj, key); }

// The host name of a Machine object, or nullptr (not a host: no node).
const char* host_name(hwloc_obj_t obj) {
    if (obj->type != HWLOC_OBJ_MACHINE) return nullptr;
    const char* host = info(obj, "HostName");
    return host != nullptr && *host != '\0' ? host : nullptr;
}

// A decimal number made of all of `digits` (at most 18 of them, so it
// always fits int64), or nullopt.
std::optional<int64_t> parse_decimal(std::string_view digits) {
    if (digits.empty() || digits.size() > 18) return std::nullopt;
    int64_t value = 0;
    for (char c : digits) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

bool equals(const char* a, const char* b) { return a != nullptr && std::strcmp(a, b) == 0; }

// Whether an OS device is (a view of) a GPU: any co-processor device
// (CUDA, OpenCL, LevelZero, ...) and the NVML and ROCm SMI management
// devices, which hwloc files as plain "GPU" devices. The other GPU
// devices (DRM cards and render nodes, displays) are not counted: a DRM
// card is also every BMC's VGA chip. hwloc 2 names the backend in the
// subtype, older exports only in the Backend info.
bool is_gpu_device(hwloc_obj_t obj) {
    if (obj->type != HWLOC_OBJ_OS_DEVICE || obj->attr == nullptr) return false;
    if (obj->attr->osdev.type == HWLOC_OBJ_OSDEV_COPROC) return true;
    if (obj->attr->osdev.type != HWLOC_OBJ_OSDEV_GPU) return false;
    for (const char* backend : {static_cast<const char*>(obj->subtype), info(obj, "Backend")}) {
        if (equals(backend, "NVML") || equals(backend, "RSMI") || equals(backend, "LevelZero")) return true;
    }
    return false;
}

// Whether a PCI device is a GPU card by its class and vendor: a display
// controller (class 0x03xx: VGA, XGA, 3D, other) of NVIDIA (0x10de), AMD
// (0x1002) or Intel (0x8086). Without a CUDA/NVML/RSMI plugin hwloc shows
// such a card only as this PCI device (docs/hwloc.md "GPUs"); a BMC's VGA
// chip (ASPEED 0x1a03, Matrox 0x102b) is not one.
bool is_gpu_card(hwloc_obj_t obj) {
    if (obj->type != HWLOC_OBJ_PCI_DEVICE || obj->attr == nullptr) return false;
    const auto& pci = obj->attr->pcidev;
    if ((pci.class_id >> 8) != 0x03) return false;
    return pci.vendor_id == 0x10de || pci.vendor_id == 0x1002 || pci.vendor_id == 0x8086;
}

// The physical GPU an OS device shows: its nearest PCI device ancestor (a
// CUDA, an OpenCL and an NVML device of one card all sit under it), or
// the OS device itself when it hangs from no PCI device. A GPU card seen
// through no GPU OS device is its own physical GPU.
hwloc_obj_t physical_gpu(hwloc_obj_t osdev) {
    if (osdev->type == HWLOC_OBJ_PCI_DEVICE) return osdev;
    for (hwloc_obj_t up = osdev->parent; up != nullptr && hwloc_obj_type_is_io(up->type); up = up->parent) {
        if (up->type == HWLOC_OBJ_PCI_DEVICE) return up;
    }
    return osdev;
}

// The Machine with a host name above `obj`, or nullptr.
hwloc_obj_t host_of(hwloc_obj_t obj) {
    for (; obj != nullptr; obj = obj->parent) {
        if (host_name(obj) != nullptr) return obj;
    }
    return nullptr;
}

// The gpu vertices of a topology: one per physical GPU, numbered per host
// 0, 1, ... in PCI bus order (domain, bus, device, function: the order
// CUDA_DEVICE_ORDER=PCI_BUS_ID gives), GPUs without a PCI device after
// them in hwloc's order. The vertex stands where the walk meets the GPU's
// first OS device; its other OS devices make no vertex. A GPU card
// (is_gpu_card) that no GPU OS device shows is a GPU too, its vertex
// standing where its PCI device is.
class GpuNumbering {
public:
    explicit GpuNumbering(hwloc_topology_t topology) {
        // Per host: GPU OS devices that hang from no PCI device, by backend
        // (each backend lists every GPU once; two backends are two views of
        // the same GPUs), and GPU cards no attached OS device shows.
        std::map<hwloc_obj_t, std::map<std::string, std::vector<hwloc_obj_t>>> loose;
        std::map<hwloc_obj_t, std::vector<hwloc_obj_t>> cards;
        for (hwloc_obj_t dev = nullptr; (dev = hwloc_get_next_osdev(topology, dev)) != nullptr;) {
            if (!is_gpu_device(dev)) continue;
            hwloc_obj_t gpu = physical_gpu(dev);
            if (gpu == dev)
                loose[host_of(dev)][backend_of(dev)].push_back(dev);
            else
                physical_[dev] = gpu;
        }
        std::set<hwloc_obj_t> shown;
        for (auto& [dev, gpu] : physical_) shown.insert(gpu);
        for (hwloc_obj_t pci = nullptr; (pci = hwloc_get_next_pcidev(topology, pci)) != nullptr;) {
            if (is_gpu_card(pci) && shown.count(pci) == 0) cards[host_of(pci)].push_back(pci);
        }
        for (auto& [host, list] : cards) std::stable_sort(list.begin(), list.end(), pci_bus_order);
        bind_loose_devices(loose, cards);
        std::map<hwloc_obj_t, std::vector<hwloc_obj_t>> by_host;  // host -> physical GPUs
        std::set<hwloc_obj_t> seen;
        auto add = [&](hwloc_obj_t host, hwloc_obj_t gpu) {
            if (seen.insert(gpu).second) by_host[host].push_back(gpu);
        };
        for (hwloc_obj_t dev = nullptr; (dev = hwloc_get_next_osdev(topology, dev)) != nullptr;) {
            if (is_gpu_device(dev)) add(host_of(dev), physical_of(dev));
        }
        for (auto& [host, list] : cards)
            for (hwloc_obj_t pci : list) {
                if (seen.count(pci) != 0) continue;
                bare_cards_.insert(pci);
                add(host, pci);
            }
        for (auto& [host, gpus] : by_host) {
            std::stable_sort(gpus.begin(), gpus.end(), pci_bus_order);
            for (size_t i = 0; i < gpus.size(); ++i) ids_[gpus[i]] = static_cast<int64_t>(i);
        }
    }

    // The id of the GPU `osdev` shows when this is the first of its OS
    // devices asked about; nullopt for the others.
    std::optional<int64_t> claim(hwloc_obj_t osdev) {
        hwloc_obj_t gpu = physical_of(osdev);
        if (!claimed_.insert(gpu).second) return std::nullopt;
        return ids_.at(gpu);
    }

    // Whether `pci` is a GPU card no GPU OS device shows.
    bool is_bare_card(hwloc_obj_t pci) const { return bare_cards_.count(pci) != 0; }

private:
    // The backend an OS device comes from ("OpenCL", "CUDA", "NVML", ...).
    static std::string backend_of(hwloc_obj_t dev) {
        if (dev->subtype != nullptr) return dev->subtype;
        if (const char* backend = info(dev, "Backend")) return backend;
        std::string name = dev->name ? dev->name : "";
        return name.substr(0, name.find_first_of("0123456789"));
    }

    hwloc_obj_t physical_of(hwloc_obj_t dev) const {
        auto it = physical_.find(dev);
        return it == physical_.end() ? physical_gpu(dev) : it->second;
    }

    // A GPU OS device that hangs from no PCI device (hwloc could not place
    // an OpenCL device, say) is the k-th GPU of its backend: the k-th of
    // each backend are one physical GPU, and that GPU is the host's k-th
    // card no attached OS device shows, when there is one — one gpu per
    // physical card (docs/hwloc.md "GPUs"), not one for the card and one
    // for its loose OS device.
    void bind_loose_devices(std::map<hwloc_obj_t, std::map<std::string, std::vector<hwloc_obj_t>>>& loose,
                            std::map<hwloc_obj_t, std::vector<hwloc_obj_t>>& cards) {
        for (auto& [host, backends] : loose) {
            const std::vector<hwloc_obj_t>& host_cards = cards[host];
            size_t count = 0;
            for (auto& [backend, devs] : backends) count = std::max(count, devs.size());
            for (size_t k = 0; k < count; ++k) {
                hwloc_obj_t gpu = nullptr;
                if (k < host_cards.size()) gpu = host_cards[k];
                for (auto& [backend, devs] : backends) {
                    if (k >= devs.size()) continue;
                    if (gpu == nullptr) gpu = devs[k];
                    physical_[devs[k]] = gpu;
                }
            }
        }
    }

    // PCI devices first, by bus id; the rest keep their order.
    static bool pci_bus_order(hwloc_obj_t a, hwloc_obj_t b) {
        bool a_pci = a->type == HWLOC_OBJ_PCI_DEVICE, b_pci = b->type == HWLOC_OBJ_PCI_DEVICE;
        if (!a_pci || !b_pci) return a_pci && !b_pci;
        auto key = [](hwloc_obj_t o) {
            const auto& pci = o->attr->pcidev;
            return std::make_tuple(pci.domain, pci.bus, pci.dev, pci.func);
        };
        return key(a) < key(b);
    }

    std::unordered_map<hwloc_obj_t, int64_t> ids_;
    std::unordered_set<hwloc_obj_t> claimed_;
    std::unordered_set<hwloc_obj_t> bare_cards_;
    std::unordered_map<hwloc_obj_t, hwloc_obj_t> physical_;  // GPU OS device -> its physical GPU
};

// Where a block device sits, for messages: " at PCI 0000:02:00.0" when
// its parent is a PCI device, else nothing.
std::string pci_location(hwloc_obj_t obj) {
    hwloc_obj_t parent = obj->parent;
    if (parent == nullptr || parent->type != HWLOC_OBJ_PCI_DEVICE || parent->attr == nullptr) return "";
    const auto& pci = parent->attr->pcidev;
    char text[32];
    std::snprintf(text, sizeof text, " at PCI %04x:%02x:%02x.%01x", pci.domain, pci.bus, pci.dev, pci.func);
    return text;
}

// Block devices: hwloc reports the capacity in KiB ("Size" info); the
// vertex size is in GB (10^6 KiB, rounded down). hwloc exports a size for
// every block device it can read one for, but real exports (corona11 in
// the conformance data) hold devices without one: such a device makes no
// vertex and adds a warning naming it, and the rest of the file loads.
std::optional<HwlocResource> describe_storage(hwloc_obj_t obj, std::vector<std::string>& warnings) {
    const char* size_kib = info(obj, "Size");
    std::optional<int64_t> kib = size_kib != nullptr ? parse_decimal(size_kib) : std::nullopt;
    if (!kib) {
        std::string device = obj->name != nullptr ? obj->name : "#" + std::to_string(obj->logical_index);
        warnings.push_back("block device " + device + pci_location(obj) +
                           (size_kib == nullptr ? " has no Size" : " has Size \"" + std::string(size_kib) + "\", not a number of KiB") +
                           ": left out (no storage vertex for it)");
        return std::nullopt;
    }
    HwlocResource storage("storage", "storage", obj->logical_index);
    storage.size = *kib / 1000000;
    if (const char* device = info(obj, "LinuxDeviceID")) storage.properties["LinuxDeviceID"] = device;
    return storage;
}

// What `obj` becomes in the graph; nullopt for objects without a vertex
// (the root of a topology without host name, bridges, PCI devices other
// than GPU cards no GPU OS device shows,
// instruction caches, network devices, a GPU's second OS device...).
// `allowlist` only spares the checks of types it leaves out; `where`
// names the file in errors; what is left out goes to `warnings`.
Result<std::optional<HwlocResource>> describe(hwloc_obj_t obj, GpuNumbering& gpus, const TypeAllowlist& allowlist,
                                              const std::string& where, std::vector<std::string>& warnings) {
    auto simple = [obj](const char* type, const char* basename, int64_t size = 1) {
        HwlocResource r(type, basename, obj->logical_index);
        r.size = size;
        return std::optional<HwlocResource>(std::move(r));
    };
    // hwloc reports cache sizes in bytes; vertices count KiB.
    auto cache_kib = [obj] {
        return static_cast<int64_t>(obj->attr != nullptr ? obj->attr->cache.size / 1024 : 0);
    };
    switch (obj->type) {
    case HWLOC_OBJ_MACHINE: {
        const char* host = host_name(obj);
        if (host == nullptr) return std::optional<HwlocResource>();
        auto split = split_hostname(host);
        if (!split) return hwloc_error(where + ": " + split.message());
        return std::optional<HwlocResource>(HwlocResource("node", split->basename, split->id, host));
    }
    case HWLOC_OBJ_GROUP: return simple("group", "group");
    case HWLOC_OBJ_NUMANODE: return simple("numanode", "numanode");
    case HWLOC_OBJ_PACKAGE: return simple("socket", "socket");
    case HWLOC_OBJ_L1CACHE: return simple("cache", "L1cache", cache_kib());
    case HWLOC_OBJ_L2CACHE: return simple("cache", "L2cache", cache_kib());
    case HWLOC_OBJ_L3CACHE: return simple("cache", "L3cache", cache_kib());
    case HWLOC_OBJ_CORE: return simple("core", "core");
    case HWLOC_OBJ_PU: return simple("pu", "pu");
    case HWLOC_OBJ_PCI_DEVICE:
        if (!gpus.is_bare_card(obj)) return std::optional<HwlocResource>();
        return std::optional<HwlocResource>(HwlocResource("gpu", "gpu", *gpus.claim(obj)));
    case HWLOC_OBJ_OS_DEVICE:
        if (obj->attr == nullptr) return std::optional<HwlocResource>();
        if (obj->attr->osdev.type == HWLOC_OBJ_OSDEV_BLOCK) {
            if (!allowlist.allows("storage")) return std::optional<HwlocResource>();
            return describe_storage(obj, warnings);
        }
        if (is_gpu_device(obj)) {
            std::optional<int64_t> id = gpus.claim(obj);
            if (!id) return std::optional<HwlocResource>();  // another view of a GPU already made
            return std::optional<HwlocResource>(HwlocResource("gpu", "gpu", *id));
        }
        return std::optional<HwlocResource>();
    default: return std::optional<HwlocResource>();
    }
}

// ---- building the graph --------------------------------------------------------

class HwlocGraphBuilder {
public:
    HwlocGraphBuilder(ResourceGraph& graph, const TypeAllowlist& allowlist, std::string where,
                      std::vector<std::string>* warnings)
        : graph_(graph), allowlist_(allowlist), where_(std::move(where)), warnings_(warnings) {}

    // Walks the tree depth-first in hwloc child order. The walk keeps its
    // own stack, so a deeply nested topology cannot exhaust the C++ stack.
    Status build(hwloc_topology_t topology) {
        auto root = add_vertex(kNoVertex, HwlocResource("cluster", "cluster", 0, "cluster0"), -1);
        if (!root) return root.error();
        if (!graph_.has_root(kContainment)) graph_.set_root(kContainment, *root);

        struct Pending {
            hwloc_obj_t obj;
            VertexId parent;  // the nearest created ancestor
            int64_t rank;     // a node's rank no vertex took yet (-1: none)
        };
        std::vector<Pending> stack{{hwloc_get_root_obj(topology), *root, -1}};
        std::vector<hwloc_obj_t> children;
        GpuNumbering gpus(topology);
        std::vector<std::string> found_warnings;  // handed over only with a loaded graph
        while (!stack.empty()) {
            Pending item = stack.back();
            stack.pop_back();
            // Only the node carries its rank; what it contains has -1, as
            // the original writes it (docs/hwloc.md, Ranks). With the node
            // left out (-W), its topmost kept vertices carry the rank.
            if (host_name(item.obj) != nullptr) item.rank = next_rank_++;
            int64_t below = item.rank;
            VertexId parent_of_children = item.parent;
            auto resource = describe(item.obj, gpus, allowlist_, where_, found_warnings);
            if (!resource) return resource.error();
            if (*resource && allowlist_.allows((*resource)->type)) {
                auto v = add_vertex(item.parent, **resource, item.rank);
                if (!v) return v.error();
                parent_of_children = *v;
                below = -1;
            }
            children.clear();
            for (hwloc_obj_t child = nullptr; (child = hwloc_get_next_child(topology, item.obj, child)) != nullptr;)
                children.push_back(child);
            for (auto it = children.rbegin(); it != children.rend(); ++it)  // first child on top
                stack.push_back({*it, parent_of_children, below});
        }
        if (warnings_ != nullptr) warnings_->insert(warnings_->end(), found_warnings.begin(), found_warnings.end());
        return ok_status();
    }

private:
    // Creates the vertex of `r` under `parent` (kNoVertex: the root) with
    // the containment edge parent -> vertex.
    Result<VertexId> add_vertex(VertexId parent, const HwlocResource& r, int64_t rank) {
        TypeId type = graph_.types().intern_always(r.type);
        if (type == kNoId) return hwloc_error(std::string("too many resource types at ") + r.type);
        std::string name = r.name.empty() ? r.basename + std::to_string(r.id) : r.name;
        std::string path = parent == kNoVertex ? std::string() : std::string(graph_.path(parent, kContainment));
        path += "/" + name;
        VertexSpec spec;
        spec.type = type;
        spec.basename = r.basename;
        spec.name = name;
        spec.id = r.id;
        spec.rank = rank;
        spec.size = r.size;
        VertexId v = graph_.add_vertex(spec);  // uniq_id: the creation index
        graph_.set_path(v, kContainment, path);
        graph_.index_path(v, path);
        for (auto& [key, value] : r.properties) graph_.set_property(v, key, value);
        if (parent != kNoVertex) graph_.add_edge(parent, v, kContainment);
        return v;
    }

    ResourceGraph& graph_;
    const TypeAllowlist& allowlist_;
    std::string where_;
    std::vector<std::string>* warnings_;
    int64_t next_rank_ = 0;
};

}  // namespace

Status read_hwloc_xml(std::string_view xml, std::string_view source_name, const TypeAllowlist& allowlist,
                      ResourceGraph& graph, std::vector<std::string>* warnings) {
    std::string where(source_name.empty() ? "<hwloc XML>" : source_name);
    if (xml.find_first_not_of(" \t\r\n") == std::string_view::npos) return hwloc_error(where + ": the file is empty");
    if (xml.find('\0') != std::string_view::npos)
        return hwloc_error(where + ": the file holds a NUL byte, it is not XML text");
    if (xml.size() >= static_cast<size_t>(std::numeric_limits<int>::max()))
        return hwloc_error(where + ": the file is too large for hwloc (" + std::to_string(xml.size()) + " bytes)");
    std::string text(xml);  // hwloc wants it NUL-terminated
    auto adopted = load_in_child(text, where);
    if (!adopted) return adopted.error();
    if (*adopted) return HwlocGraphBuilder(graph, allowlist, where, warnings).build(adopted->get());

    auto topology = new_topology(where);
    if (!topology) return topology.error();
    // hwloc wants the terminating NUL counted in the length.
    if (hwloc_topology_set_xmlbuffer(topology->get(), text.c_str(), static_cast<int>(text.size() + 1)) != 0)
        return hwloc_error(where + ": this hwloc cannot read XML: " + std::strerror(errno));
    if (load_quietly(topology->get()) != 0)
        return hwloc_error(where + ": hwloc cannot load it a second time (it did in the loader process)");
    return HwlocGraphBuilder(graph, allowlist, where, warnings).build(topology->get());
}

Status read_hwloc_local(const TypeAllowlist& allowlist, ResourceGraph& graph, std::vector<std::string>* warnings) {
    const std::string where = "the local machine";
    auto topology = new_topology(where);
    if (!topology) return topology.error();
    if (hwloc_topology_load(topology->get()) != 0)
        return hwloc_error("cannot detect the topology of " + where + ": " + std::strerror(errno));
    return HwlocGraphBuilder(graph, allowlist, where, warnings).build(topology->get());
}

}  // namespace rq
