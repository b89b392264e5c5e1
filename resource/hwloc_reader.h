// hwloc reader: a machine topology, from an hwloc XML export or detected on
// the machine we run on, into a ResourceGraph (spec/readers.md §4, `-f
// hwloc`).
//
// hwloc itself parses the XML (or probes the machine) with the I/O filter
// "keep important" and the cache filters "keep structure"; this reader only
// walks the resulting object tree depth-first in hwloc's child order
// (normal children, then memory children, then I/O, then misc children)
// and creates a vertex for every object it supports:
//
//   hwloc object                      vertex type  name / id / size
//   Machine with a HostName info      node         the host name; id from its
//                                                  numeric suffix
//   Group                             group        group<L#>
//   NUMANode                          numanode     numanode<L#>
//   Package                           socket       socket<L#>
//   L1 / L2 / L3 (data or unified)    cache        L1cache<L#>...; size in KiB
//   Core                              core         core<L#>
//   PU                                pu           pu<L#>
//   OS devices of one physical GPU    gpu          gpu<N>: N-th GPU of the node
//   (CUDA, OpenCL, NVML, RSMI,                     in PCI bus order (GPUs
//   LevelZero, other co-processors                 without a PCI device last,
//   under one PCI device)                          in hwloc order)
//   PCI display controller (0x03xx)   gpu          the same numbering; only
//   of NVIDIA, AMD or Intel that no                when no such OS device
//   GPU OS device shows                            shows the card
//   OS device, block                  storage      storage<L#>; size in GB;
//                                                  property LinuxDeviceID. A
//                                                  block device without a
//                                                  Size makes no vertex and
//                                                  a warning.
//
// L# is hwloc's logical index. Every vertex is a child of the nearest
// created ancestor, under a root `cluster0` (path /cluster0) as in the
// rv1exec reader; paths are `<parent path>/<name>`, uniq_id is the creation
// index, and every Machine with a host name takes the next rank (0, 1, ...)
// which all vertices below it share (the cluster has rank -1). Objects the
// -W allow-list excludes are skipped but their children are still visited.
// What the reader leaves out of a file it loads (a storage device without
// a size) it reports in `warnings`, one line each without the file name,
// handed over only when the load succeeds; nullptr drops them.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "resource/graph.h"
#include "utilities/result.h"

namespace rq {

// The -W allow-list: which resource types the hwloc reader creates.
class TypeAllowlist {
public:
    // Everything allowed.
    TypeAllowlist() = default;

    // "node,socket,core": comma-separated type names; blanks around a name
    // and empty items are ignored. A list that names no type at all allows
    // everything; otherwise `cluster` is always allowed too.
    static TypeAllowlist parse(std::string_view text);

    bool allows(std::string_view type) const;
    bool allows_everything() const { return types_.empty(); }

private:
    std::set<std::string, std::less<>> types_;
};

// Loads the hwloc XML document `xml` and adds its resources to `graph`
// (normally empty). `source_name` (the file path) names the document in
// error messages. Does not recount `nodes_up`.
//
// hwloc crashes on some malformed topologies, so the document is first
// loaded in a forked child process, which hands the topology back through
// hwloc's shared memory support (or this process parses the file once the
// child proved it safe): a crash becomes an error ("hwloc crashed loading
// it"); a refusal gives hwloc's own reason. Call it while the process is
// single-threaded (start-up).
Status read_hwloc_xml(std::string_view xml, std::string_view source_name, const TypeAllowlist& allowlist,
                      ResourceGraph& graph, std::vector<std::string>* warnings = nullptr);

// How the reader reports the end of its hwloc loader child: `status` as
// waitpid() gives it, `printed` the end of what the child printed (hwloc's
// messages with HWLOC_XML_VERBOSE=1, or a sanitizer's report). Exit
// status 0 (loaded) is ok; 71 (hwloc refused the file) gives hwloc's
// reason; a signal, or any other status (AddressSanitizer and UBSan exit
// with 1), is a crash. Exposed for tests.
Status hwloc_child_verdict(int status, std::string_view printed, const std::string& where);

// Test hook: the room (bytes) read_hwloc_xml() gives the loader child for
// its copy of the topology; 0 restores the default (16 times the file
// plus 64 MiB). A topology that does not fit crashes the child's copy,
// after it proved the file safe: this process then parses the file.
void set_hwloc_shared_room_for_tests(size_t bytes);

// Detects the topology of the machine this process runs on (restricted to
// what the process may use, as hwloc does by default) and adds it the same
// way. Does not recount `nodes_up`.
Status read_hwloc_local(const TypeAllowlist& allowlist, ResourceGraph& graph,
                        std::vector<std::string>* warnings = nullptr);

}  // namespace rq
