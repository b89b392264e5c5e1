#include "session/allocation_picture.h"

namespace rq {

AllocationMap allocation_map(const Session& s) {
    AllocationMap holders;
    if (!s.graph || !s.store) return holders;
    const size_t n = std::min(s.store->size(), s.graph->num_vertices());
    for (VertexId v = 0; v < n; ++v) {
        const VertexSchedule* record = s.store->find(v);
        if (record == nullptr || (record->allocations.empty() && record->reservations.empty())) continue;
        VertexHolders& h = holders[v];
        for (const auto& entry : record->allocations) h.allocated.push_back(entry.first);
        for (const auto& entry : record->reservations) h.reserved.push_back(entry.first);
    }
    return holders;
}

Result<size_t> dump_allocations(const Session& s, const std::string& path, const AllocationDotOptions& options,
                        std::string& warning) {
    warning.clear();
    if (!s.graph) return make_error(Errc::kInvalid, "no resource graph is loaded");
    size_t drawn = 0;
    RQ_TRY(export_allocation_dot(*s.graph, allocation_map(s), path, options, &drawn));
    warning = large_picture_warning(path, drawn, options.held_only);
    return drawn;
}

std::string final_picture_path(const std::string& base) { return base + ".final.dot"; }

}  // namespace rq
