// The R_lite writer (spec/output.md §1.5): the allocation summarised per
// node as
//
//     [{"rank": "0-3", "children": {"core": "0-35", "gpu": "0-1"}}]
//
// Core and gpu ids are buffered as they are emitted; when a node (or
// storage_node) is emitted after them, the buffered ids become that node's
// "children" and the node's rank joins the group of nodes with exactly the
// same children. Groups are printed in byte order of their children text.
//
// The rv1 writers (resource/writer_rv1.h) build on this: they also need
// the node list and the per-property rank sets collected here.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "resource/match_writer.h"

namespace rq {

class RliteWriter : public MatchWriter {
public:
    void vertex(const ResourceGraph& graph, const VertexEmission& v) override;
    void edge(const ResourceGraph&, EdgeId, bool) override {}
    // Prints the R_lite array and a newline, then resets; kInvalid when no
    // node was recorded.
    Status flush(std::ostream& out) override;
    // Forgets the recorded nodes. Buffered core/gpu ids that no node has
    // claimed yet are kept: the reference carries them over to the next
    // node, even of a later job.
    void reset() override;
    // Drops the buffered ids no node claimed (the rv1 writers do after
    // every job, so that one job's ids never land in the next one's R).
    void forget_unclaimed();

    // True when no node has been recorded (nothing to print).
    bool empty() const { return groups_.empty(); }
    // The R_lite array.
    nlohmann::ordered_json r_lite() const;
    // The recorded host names, ordered by rank, hostlist-encoded.
    std::string nodelist() const;
    // {"<property>": "<idset of ranks>", ...}, keys sorted; empty object
    // when no recorded node had properties.
    nlohmann::ordered_json properties() const;

private:
    struct Host {
        int64_t rank;
        std::string name;
    };
    struct Group {
        nlohmann::ordered_json children;  // {"core": "...", "gpu": "..."}
        std::vector<Host> hosts;          // in emission order
    };

    void record_node(const ResourceGraph& graph, VertexId node);

    // Ids of emitted but not yet claimed cores and gpus.
    std::vector<int64_t> core_ids_;
    std::vector<int64_t> gpu_ids_;
    // Keyed by the JSON text of the children object (the sort key).
    std::map<std::string, Group> groups_;
    // "name" or "name=value" -> ranks of the recorded nodes having it.
    std::map<std::string, std::vector<int64_t>> property_ranks_;
};

}  // namespace rq
