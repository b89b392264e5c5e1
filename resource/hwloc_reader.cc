#include "resource/hwloc_reader.h"

#include <hwloc.h>
#include <hwloc/shmem.h>

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

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
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

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

Error hwloc_error(const std::string& what) { return make_error(Errc::kInvalid, "hwloc_reader: " + what); }

// ---- the hwloc topology ----------------------------------------------------------

struct TopologyDeleter {
    void operator()(hwloc_topology_t topology) const { hwloc_topology_destroy(topology); }
};
using Topology = std::unique_ptr<hwloc_topology, TopologyDeleter>;

// A new topology object with the reference's filters, not loaded yet.
// `where` names the source in messages.
Result<Topology> new_topology(const std::string& where) {
    hwloc_topology_t raw = nullptr;
    if (hwloc_topology_init(&raw) != 0)
        return hwloc_error(where + ": cannot initialize an hwloc topology: " + std::strerror(errno));
    Topology topology(raw);
    // I/O devices: only the ones that matter (PCI devices with OS devices,
    // block devices, GPUs...); caches: only those that add structure.
    if (hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_IMPORTANT) != 0 ||
        hwloc_topology_set_cache_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_STRUCTURE) != 0)
        return hwloc_error(where + ": cannot set the hwloc type filters: " + std::strerror(errno));
    return topology;
}

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

// The physical GPU an OS device shows: its nearest PCI device ancestor (a
// CUDA, an OpenCL and an NVML device of one card all sit under it), or
// the OS device itself when it hangs from no PCI device.
hwloc_obj_t physical_gpu(hwloc_obj_t osdev) {
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
// first OS device; its other OS devices make no vertex.
class GpuNumbering {
public:
    explicit GpuNumbering(hwloc_topology_t topology) {
        std::map<hwloc_obj_t, std::vector<hwloc_obj_t>> by_host;  // host -> physical GPUs, hwloc order
        for (hwloc_obj_t dev = nullptr; (dev = hwloc_get_next_osdev(topology, dev)) != nullptr;) {
            if (!is_gpu_device(dev)) continue;
            hwloc_obj_t gpu = physical_gpu(dev);
            if (ids_.emplace(gpu, 0).second) by_host[host_of(dev)].push_back(gpu);
        }
        for (auto& [host, gpus] : by_host) {
            std::stable_sort(gpus.begin(), gpus.end(), pci_bus_order);
            for (size_t i = 0; i < gpus.size(); ++i) ids_[gpus[i]] = static_cast<int64_t>(i);
        }
    }

    // The id of the GPU `osdev` shows when this is the first of its OS
    // devices asked about; nullopt for the others.
    std::optional<int64_t> claim(hwloc_obj_t osdev) {
        hwloc_obj_t gpu = physical_gpu(osdev);
        if (!claimed_.insert(gpu).second) return std::nullopt;
        return ids_.at(gpu);
    }

private:
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
// (the root of a topology without host name, bridges, PCI devices,
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
            int64_t rank;
        };
        std::vector<Pending> stack{{hwloc_get_root_obj(topology), *root, -1}};
        std::vector<hwloc_obj_t> children;
        GpuNumbering gpus(topology);
        std::vector<std::string> found_warnings;  // handed over only with a loaded graph
        while (!stack.empty()) {
            Pending item = stack.back();
            stack.pop_back();
            if (host_name(item.obj) != nullptr) item.rank = next_rank_++;
            VertexId parent_of_children = item.parent;
            auto resource = describe(item.obj, gpus, allowlist_, where_, found_warnings);
            if (!resource) return resource.error();
            if (*resource && allowlist_.allows((*resource)->type)) {
                auto v = add_vertex(item.parent, **resource, item.rank);
                if (!v) return v.error();
                parent_of_children = *v;
            }
            children.clear();
            for (hwloc_obj_t child = nullptr; (child = hwloc_get_next_child(topology, item.obj, child)) != nullptr;)
                children.push_back(child);
            for (auto it = children.rbegin(); it != children.rend(); ++it)  // first child on top
                stack.push_back({*it, parent_of_children, item.rank});
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

// ---- untrusted XML -------------------------------------------------------------
//
// hwloc's XML import is not hardened against malformed input: a missing
// nodeset, a broken cpuset or absurd nesting can make hwloc_topology_load
// dereference null or overflow the stack. So the user's XML is first
// loaded in a forked child process that only reports whether hwloc
// survived it and, if hwloc refused it, hwloc's own reason (what it prints
// on its standard error with HWLOC_XML_VERBOSE=1, which the child sends
// through a pipe). Only a file the child loaded is used here.
//
// The child hands the topology it built back through hwloc's shared
// memory support (hwloc_shmem_topology_write/adopt: hwloc's own copy of
// its own objects, no parsing), so the file is parsed once. The copy
// must sit at the same address in both processes: this process reserves
// an address range before the fork, the child writes there, and this
// process adopts it. When that is not possible (topology larger than the
// reservation, no memfd...), this process parses the file itself, which
// the child proved safe. (Re-exporting the topology as XML, as this
// reader once did, cost 80% of a large load.)

// Exit codes of the child. Not 1, nor the other small codes sanitizers and
// runtimes use (AddressSanitizer and UBSan exit with 1 by default): any
// other status means the child was ended by something else than its own
// verdict.
constexpr int kChildLoaded = 0;
constexpr int kChildCannotLoad = 71;
constexpr int kChildCannotInit = 72;

void set_close_on_exec(int fd) { fcntl(fd, F_SETFD, FD_CLOEXEC); }

// hwloc reads HWLOC_XML_VERBOSE once per process, on its first XML
// import, and keeps the answer; it must be set before that, i.e. in this
// process before the first child is forked.
void ask_hwloc_for_reasons() {
    static const bool done = (setenv("HWLOC_XML_VERBOSE", "1", 1), true);
    (void)done;
}

// Where the child leaves the topology: a memory file (header at offset
// 0, hwloc's copy at one page) and an address range this process keeps
// reserved for it.
struct SharedSpot {
    int fd = -1;
    void* address = nullptr;
    size_t capacity = 0;  // bytes for hwloc's copy at `address`, followed
                          // by as many reserved inaccessible bytes (a guard)
    size_t page = 4096;
};

// What the child leaves at offset 0 of the memory file.
struct SharedHeader {
    uint64_t magic;
    uint64_t loaded;  // 1: hwloc loaded the file (written before the copy)
    uint64_t shared;  // 1: hwloc's copy is complete at `address`
};
constexpr uint64_t kSharedMagic = 0x7271687769746f70;  // "rqhwtop"

size_t shared_room_for_tests = 0;  // see set_hwloc_shared_room_for_tests()

// Reserves (without committing memory) room for a topology built from a
// `text_size`-byte XML file; a spot with fd -1 when it cannot.
SharedSpot reserve_shared_spot(size_t text_size) {
    SharedSpot spot;
    spot.page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    // hwloc's objects take about 5 times the room of their XML (a 4.5 MB
    // export of 8,192 PUs: 23 MB); only the pages written cost memory.
    size_t room = shared_room_for_tests != 0 ? shared_room_for_tests : text_size * 16 + (size_t(64) << 20);
    spot.capacity = (room + spot.page - 1) / spot.page * spot.page;
    void* reserved = mmap(nullptr, 2 * spot.capacity, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (reserved == MAP_FAILED) return spot;
    spot.fd = memfd_create("rq-hwloc-topology", MFD_CLOEXEC);
    if (spot.fd < 0 || ftruncate(spot.fd, static_cast<off_t>(spot.page + spot.capacity)) != 0) {
        if (spot.fd >= 0) close(spot.fd);
        spot.fd = -1;
        munmap(reserved, 2 * spot.capacity);
        return spot;
    }
    spot.address = reserved;
    return spot;
}

void release_shared_spot(SharedSpot& spot) {
    if (spot.address != nullptr) munmap(spot.address, 2 * spot.capacity);
    if (spot.fd >= 0) close(spot.fd);
    spot = SharedSpot();
}

bool write_header(const SharedSpot& spot, uint64_t shared) {
    SharedHeader header{kSharedMagic, 1, shared};
    return pwrite(spot.fd, &header, sizeof header, 0) == static_cast<ssize_t>(sizeof header);
}

// In the child, once hwloc loaded the file: records that, then has hwloc
// copy `topology` into the spot. The copy is given the whole reservation
// rather than hwloc_shmem_topology_get_length()'s figure (computing it is
// a second full copy). hwloc does not check that bound: a topology larger
// than the room writes into the guard after it and crashes the child
// here, after the record; the parent then parses the file itself.
void share_topology(hwloc_topology_t topology, const SharedSpot& spot) {
    if (spot.fd < 0 || !write_header(spot, 0)) return;
    munmap(spot.address, spot.capacity);  // the child's copy of the room (not the guard): hwloc maps the file there
    if (hwloc_shmem_topology_write(topology, spot.fd, spot.page, spot.address, spot.capacity, 0) != 0) return;
    write_header(spot, 1);
}

// In this process, after the child ended (`exited_ok`: with status 0):
// whether hwloc loaded the file there, and the topology it left in `spot`
// (nullptr: none). Releases the spot.
struct ChildOutcome {
    bool loaded = false;
    hwloc_topology_t topology = nullptr;
};
ChildOutcome adopt_shared_topology(SharedSpot& spot, bool exited_ok) {
    ChildOutcome outcome;
    SharedHeader header{};
    if (spot.fd >= 0 && pread(spot.fd, &header, sizeof header, 0) == static_cast<ssize_t>(sizeof header) &&
        header.magic == kSharedMagic) {
        outcome.loaded = header.loaded == 1;
        if (header.shared == 1 && exited_ok) {
            munmap(spot.address, spot.capacity);  // free the room for hwloc's mapping; nothing runs in between
            if (hwloc_shmem_topology_adopt(&outcome.topology, spot.fd, spot.page, spot.address, spot.capacity, 0) != 0)
                outcome.topology = nullptr;
            munmap(static_cast<char*>(spot.address) + spot.capacity, spot.capacity);  // the guard
            spot.address = nullptr;  // nothing left reserved
        }
    }
    release_shared_spot(spot);
    return outcome;
}

// In the child: loads `text` (NUL-terminated) with the reader's filters
// and leaves a copy of the topology in `spot`.
int child_load(const std::string& text, const SharedSpot& spot) {
    auto topology = new_topology("");
    if (!topology) return kChildCannotInit;
    if (hwloc_topology_set_xmlbuffer(topology->get(), text.c_str(), static_cast<int>(text.size() + 1)) != 0)
        return kChildCannotInit;
    if (hwloc_topology_load(topology->get()) != 0) return kChildCannotLoad;
    share_topology(topology->get(), spot);
    return kChildLoaded;
}

// Lines hwloc prints around every parse failure; they say nothing about
// this file.
bool is_generic_hwloc_line(std::string_view line) {
    for (std::string_view generic : {"Failed to parse XML input", "generated by hwloc, try enabling",
                                     "XML component discovery failed", "hwloc: Topology loaded"}) {
        if (line.find(generic) != std::string_view::npos) return true;
    }
    return false;
}

// hwloc's reason among what the child printed: its last specific line
// (the fatal message comes last, after any "ignoring ..." warnings), with
// the "xmlbuffer: " prefix hwloc puts before the messages of an XML
// buffer dropped; empty when there is none.
std::string hwloc_reason(std::string_view printed) {
    std::string reason;
    while (!printed.empty()) {
        size_t end = printed.find('\n');
        std::string_view line = printed.substr(0, end);
        printed = end == std::string_view::npos ? std::string_view() : printed.substr(end + 1);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '.')) line.remove_suffix(1);
        if (line.rfind("xmlbuffer: ", 0) == 0) line.remove_prefix(11);
        if (!line.empty() && !is_generic_hwloc_line(line)) reason = std::string(line);
    }
    return reason;
}

// Reads `fd` to its end, keeping the last `keep` bytes at most.
std::string read_tail(int fd, size_t keep) {
    std::string tail;
    char buffer[1 << 14];
    for (;;) {
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        tail.append(buffer, static_cast<size_t>(n));
        if (tail.size() > 2 * keep) tail.erase(0, tail.size() - keep);
    }
    if (tail.size() > keep) tail.erase(0, tail.size() - keep);
    return tail;
}

}  // namespace

void set_hwloc_shared_room_for_tests(size_t bytes) { shared_room_for_tests = bytes; }

Status hwloc_child_verdict(int status, std::string_view printed, const std::string& where) {
    std::string reason = hwloc_reason(printed);
    if (WIFSIGNALED(status))
        return hwloc_error(where + ": hwloc crashed loading it (" + strsignal(WTERMSIG(status)) +
                           "): malformed hwloc topology");
    if (!WIFEXITED(status)) return hwloc_error(where + ": the hwloc loader process vanished");
    switch (WEXITSTATUS(status)) {
    case kChildLoaded: return ok_status();
    case kChildCannotLoad:
        return hwloc_error(where + ": hwloc cannot load it: " +
                           (reason.empty() ? "malformed XML or not an hwloc topology" : reason));
    case kChildCannotInit: return hwloc_error(where + ": cannot set up an hwloc topology to load it");
    default:
        // A sanitizer or the C++ runtime ended the child (its report, or
        // the end of it, is the reason).
        return hwloc_error(where + ": hwloc crashed loading it (the loader process exited with status " +
                           std::to_string(WEXITSTATUS(status)) + (reason.empty() ? "" : ": " + reason) + ")");
    }
}

namespace {

// Loads `text` in a child process. If hwloc loaded it there: the topology
// the child left in `spot`, or a null one (this process must parse the
// file itself, which is then known to be safe). Otherwise an error naming
// `where` and giving the reason, one line. Releases `spot`. Must be
// called while this process is single-threaded (start-up).
Result<Topology> load_in_child(const std::string& text, const std::string& where, SharedSpot& spot) {
    ask_hwloc_for_reasons();
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) {
        int error = errno;
        release_shared_spot(spot);
        return hwloc_error(where + ": cannot create a pipe: " + std::strerror(error));
    }
    set_close_on_exec(pipe_fds[0]);
    pid_t child = fork();
    if (child < 0) {
        int error = errno;
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        release_shared_spot(spot);
        return hwloc_error(where + ": cannot fork: " + std::strerror(error));
    }
    if (child == 0) {
        close(pipe_fds[0]);
        dup2(pipe_fds[1], STDERR_FILENO);  // hwloc's messages (and a sanitizer's report) go to the parent
        dup2(pipe_fds[1], STDOUT_FILENO);
        rlimit no_core{0, 0};
        setrlimit(RLIMIT_CORE, &no_core);  // a crash here is expected, not worth a core file
        _exit(child_load(text, spot));     // _exit: never flush the parent's stdio buffers
    }
    close(pipe_fds[1]);
    std::string printed = read_tail(pipe_fds[0], 4096);
    close(pipe_fds[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            int error = errno;
            release_shared_spot(spot);
            return hwloc_error(where + ": lost the hwloc loader process: " + std::strerror(error));
        }
    }
    ChildOutcome outcome = adopt_shared_topology(spot, WIFEXITED(status) && WEXITSTATUS(status) == kChildLoaded);
    if (outcome.loaded) return Topology(outcome.topology);  // even if the copy then crashed
    RQ_TRY(hwloc_child_verdict(status, printed, where));
    return Topology();  // loaded, but no memory file: parse here
}

// Runs `load` with this process's standard error sent to /dev/null: hwloc
// repeats here the warnings the child already printed (and we dropped).
template <typename Load>
auto with_stderr_silenced(Load load) {
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved >= 0 && null_fd >= 0) dup2(null_fd, STDERR_FILENO);
    auto result = load();
    if (saved >= 0 && null_fd >= 0) dup2(saved, STDERR_FILENO);
    if (saved >= 0) close(saved);
    if (null_fd >= 0) close(null_fd);
    return result;
}

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
    SharedSpot spot = reserve_shared_spot(text.size());
    auto adopted = load_in_child(text, where, spot);
    if (!adopted) return adopted.error();
    if (*adopted) return HwlocGraphBuilder(graph, allowlist, where, warnings).build(adopted->get());

    auto topology = new_topology(where);
    if (!topology) return topology.error();
    // hwloc wants the terminating NUL counted in the length.
    if (hwloc_topology_set_xmlbuffer(topology->get(), text.c_str(), static_cast<int>(text.size() + 1)) != 0)
        return hwloc_error(where + ": this hwloc cannot read XML: " + std::strerror(errno));
    if (with_stderr_silenced([&] { return hwloc_topology_load(topology->get()); }) != 0)
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
