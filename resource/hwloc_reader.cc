#include "resource/hwloc_reader.h"

#include <hwloc.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
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

// Whether an OS device backend ("CUDA", "OpenCL", ...) makes GPUs.
bool is_gpu_backend(const char* backend) {
    return backend != nullptr &&
           (std::strcmp(backend, "CUDA") == 0 || std::strcmp(backend, "OpenCL") == 0 || std::strcmp(backend, "RSMI") == 0);
}

// GPUs are the CUDA, OpenCL and ROCm SMI devices (not the DRM "card"
// devices nor NVML's duplicates of the CUDA ones); hwloc 2 names the
// backend in the subtype, older exports only in the Backend info. Their
// number is the trailing number of the device name: cuda3, opencl0d3
// (device 3 of platform 0), rsmi3; a name without one falls back to the
// logical index.
std::optional<HwlocResource> describe_gpu(hwloc_obj_t obj) {
    if (!is_gpu_backend(obj->subtype) && !is_gpu_backend(info(obj, "Backend"))) return std::nullopt;
    std::string_view name = obj->name != nullptr ? obj->name : "";
    size_t digits = name.size();
    while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9') --digits;
    return HwlocResource("gpu", "gpu", parse_decimal(name.substr(digits)).value_or(obj->logical_index));
}

// Block devices: hwloc reports the capacity in KiB ("Size" info); the
// vertex size is in GB (10^6 KiB, rounded down). Without a readable size
// there is nothing to schedule, so no vertex.
std::optional<HwlocResource> describe_storage(hwloc_obj_t obj) {
    const char* size_kib = info(obj, "Size");
    std::optional<int64_t> kib = size_kib != nullptr ? parse_decimal(size_kib) : std::nullopt;
    if (!kib) return std::nullopt;
    HwlocResource storage("storage", "storage", obj->logical_index);
    storage.size = *kib / 1000000;
    if (const char* device = info(obj, "LinuxDeviceID")) storage.properties["LinuxDeviceID"] = device;
    return storage;
}

// What `obj` becomes in the graph; nullopt for objects without a vertex
// (the root of a topology without host name, bridges, PCI devices,
// instruction caches, network devices...).
Result<std::optional<HwlocResource>> describe(hwloc_obj_t obj) {
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
        if (!split) return hwloc_error(split.message());
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
        if (obj->attr->osdev.type == HWLOC_OBJ_OSDEV_BLOCK) return describe_storage(obj);
        if (obj->attr->osdev.type == HWLOC_OBJ_OSDEV_COPROC || obj->attr->osdev.type == HWLOC_OBJ_OSDEV_GPU)
            return describe_gpu(obj);
        return std::optional<HwlocResource>();
    default: return std::optional<HwlocResource>();
    }
}

// ---- building the graph --------------------------------------------------------

class HwlocGraphBuilder {
public:
    HwlocGraphBuilder(ResourceGraph& graph, const TypeAllowlist& allowlist) : graph_(graph), allowlist_(allowlist) {}

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
        while (!stack.empty()) {
            Pending item = stack.back();
            stack.pop_back();
            if (host_name(item.obj) != nullptr) item.rank = next_rank_++;
            VertexId parent_of_children = item.parent;
            auto resource = describe(item.obj);
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
    int64_t next_rank_ = 0;
};

// ---- untrusted XML -------------------------------------------------------------
//
// hwloc's XML import is not hardened against malformed input: a missing
// nodeset, a broken cpuset or absurd nesting can make hwloc_topology_load
// dereference null or overflow the stack. So the user's XML is first
// loaded in a child process, which hands back hwloc's own export of the
// topology it built; only that canonical XML, written by hwloc itself, is
// loaded in this process. A crash then costs the child, not us.

// Exit codes of the child.
constexpr int kChildLoaded = 0;
constexpr int kChildCannotLoad = 1;
constexpr int kChildCannotExport = 2;

bool write_all(int fd, const char* data, size_t length) {
    while (length > 0) {
        ssize_t n = write(fd, data, length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data += n;
        length -= static_cast<size_t>(n);
    }
    return true;
}

// In the child: loads `text` (NUL-terminated) with the reader's filters
// and writes hwloc's XML export of the result to `fd`.
int export_canonical_xml(const std::string& text, int fd) {
    auto topology = new_topology("");
    if (!topology) return kChildCannotLoad;
    if (hwloc_topology_set_xmlbuffer(topology->get(), text.c_str(), static_cast<int>(text.size() + 1)) != 0 ||
        hwloc_topology_load(topology->get()) != 0)
        return kChildCannotLoad;
    char* xml = nullptr;
    int length = 0;
    if (hwloc_topology_export_xmlbuffer(topology->get(), &xml, &length, 0) != 0) return kChildCannotExport;
    // `length` counts the terminating NUL.
    bool written = write_all(fd, xml, length > 0 ? static_cast<size_t>(length - 1) : 0);
    hwloc_free_xmlbuffer(topology->get(), xml);
    return written ? kChildLoaded : kChildCannotExport;
}

// hwloc's canonical export of the topology in `text`, computed in a child
// process. Must be called while this process is single-threaded (start-up).
Result<std::string> canonical_xml(const std::string& text, const std::string& where) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) return hwloc_error(where + ": cannot create a pipe: " + std::strerror(errno));
    pid_t child = fork();
    if (child < 0) {
        int error = errno;
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        return hwloc_error(where + ": cannot fork: " + std::strerror(error));
    }
    if (child == 0) {
        close(pipe_fds[0]);
        rlimit no_core{0, 0};
        setrlimit(RLIMIT_CORE, &no_core);  // a crash here is expected, not worth a core file
        _exit(export_canonical_xml(text, pipe_fds[1]));  // _exit: never flush the parent's stdio buffers
    }
    close(pipe_fds[1]);
    std::string exported;
    char buffer[1 << 16];
    for (;;) {
        ssize_t n = read(pipe_fds[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        exported.append(buffer, static_cast<size_t>(n));
    }
    close(pipe_fds[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) return hwloc_error(where + ": lost the hwloc loader process: " + std::strerror(errno));
    }
    if (WIFSIGNALED(status))
        return hwloc_error(where + ": hwloc crashed loading it (" + strsignal(WTERMSIG(status)) +
                           "): malformed hwloc topology");
    if (!WIFEXITED(status) || WEXITSTATUS(status) == kChildCannotLoad)
        return hwloc_error(where + ": hwloc cannot load it (malformed XML or not an hwloc topology)");
    if (WEXITSTATUS(status) != kChildLoaded)
        return hwloc_error(where + ": hwloc could not export the topology it loaded");
    return exported;
}

}  // namespace

Status read_hwloc_xml(std::string_view xml, std::string_view source_name, const TypeAllowlist& allowlist,
                      ResourceGraph& graph) {
    std::string where(source_name.empty() ? "<hwloc XML>" : source_name);
    if (xml.find_first_not_of(" \t\r\n") == std::string_view::npos) return hwloc_error(where + ": the file is empty");
    if (xml.find('\0') != std::string_view::npos)
        return hwloc_error(where + ": the file holds a NUL byte, it is not XML text");
    if (xml.size() >= static_cast<size_t>(std::numeric_limits<int>::max()))
        return hwloc_error(where + ": the file is too large for hwloc (" + std::to_string(xml.size()) + " bytes)");
    auto canonical = canonical_xml(std::string(xml), where);
    if (!canonical) return canonical.error();
    if (canonical->size() >= static_cast<size_t>(std::numeric_limits<int>::max()))
        return hwloc_error(where + ": the topology is too large for hwloc");

    auto topology = new_topology(where);
    if (!topology) return topology.error();
    // hwloc wants the terminating NUL counted in the length.
    if (hwloc_topology_set_xmlbuffer(topology->get(), canonical->c_str(), static_cast<int>(canonical->size() + 1)) != 0)
        return hwloc_error(where + ": this hwloc cannot read XML: " + std::strerror(errno));
    if (hwloc_topology_load(topology->get()) != 0)
        return hwloc_error(where + ": hwloc cannot reload its own export of it");
    return HwlocGraphBuilder(graph, allowlist).build(topology->get());
}

Status read_hwloc_local(const TypeAllowlist& allowlist, ResourceGraph& graph) {
    const std::string where = "the local machine";
    auto topology = new_topology(where);
    if (!topology) return topology.error();
    if (hwloc_topology_load(topology->get()) != 0)
        return hwloc_error("cannot detect the topology of " + where + ": " + std::strerror(errno));
    return HwlocGraphBuilder(graph, allowlist).build(topology->get());
}

}  // namespace rq
