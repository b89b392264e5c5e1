// hwloc topologies for the hwloc reader, and the crash isolation of
// hwloc's XML import: hwloc is not hardened against malformed XML, so a
// user's file is first loaded in a forked child process, which hands the
// topology back through hwloc's shared memory support or dies alone. The
// exit status protocol and the verdict are hwloc_child_verdict()
// (hwloc_reader.h).
#pragma once

#include <hwloc.h>

#include <memory>
#include <string>

#include "utilities/result.h"

namespace rq {

struct TopologyDeleter {
    void operator()(hwloc_topology_t topology) const { hwloc_topology_destroy(topology); }
};
using Topology = std::unique_ptr<hwloc_topology, TopologyDeleter>;

// An error of the hwloc reader: "hwloc_reader: <what>".
Error hwloc_error(const std::string& what);

// A new topology object with the reference's filters, not loaded yet.
// `where` names the source in messages.
Result<Topology> new_topology(const std::string& where);

// Loads the XML `text` in a child process. If hwloc loaded it there: the
// topology the child built, or a null one when it could not be handed
// back (this process must then parse the file itself, which the child
// proved safe). Otherwise an error naming `where` with hwloc's reason or
// the crash, one line. Call it while the process is single-threaded.
Result<Topology> load_in_child(const std::string& text, const std::string& where);

// hwloc_topology_load() with this process's standard error silenced
// (hwloc would repeat the warnings the child already printed).
int load_quietly(hwloc_topology_t topology);

}  // namespace rq
