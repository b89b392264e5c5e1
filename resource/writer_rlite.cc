#include "resource/writer_rlite.h"

#include <algorithm>

#include "utilities/hostlist.h"
#include "utilities/idset.h"
#include "utilities/json_text.h"

namespace rq {

void RliteWriter::vertex(const ResourceGraph& graph, const VertexEmission& v) {
    switch (graph.type(v.vertex)) {
    case types::kCore:
        core_ids_.push_back(graph.id(v.vertex));
        break;
    case types::kGpu:
        gpu_ids_.push_back(graph.id(v.vertex));
        break;
    case types::kNode:
    case types::kStorageNode:
        record_node(graph, v.vertex);
        break;
    default:
        break;
    }
}

void RliteWriter::record_node(const ResourceGraph& graph, VertexId node) {
    // Children in type interning order: core before gpu. A node with no
    // buffered ids is not part of R_lite at all.
    nlohmann::ordered_json children = nlohmann::ordered_json::object();
    if (!core_ids_.empty()) children["core"] = encode_idset(std::move(core_ids_));
    if (!gpu_ids_.empty()) children["gpu"] = encode_idset(std::move(gpu_ids_));
    core_ids_.clear();
    gpu_ids_.clear();
    if (children.empty()) return;

    const int64_t rank = graph.rank(node);
    Group& group = groups_[json_text(children)];
    if (group.hosts.empty()) group.children = std::move(children);
    group.hosts.push_back({rank, std::string(graph.name(node))});

    if (const PropertyMap* properties = graph.properties(node)) {
        for (const auto& [name, value] : *properties)
            property_ranks_[value.empty() ? name : name + "=" + value].push_back(rank);
    }
}

nlohmann::ordered_json RliteWriter::r_lite() const {
    nlohmann::ordered_json array = nlohmann::ordered_json::array();
    for (const auto& [text, group] : groups_) {
        std::vector<int64_t> ranks;
        for (const Host& host : group.hosts) ranks.push_back(host.rank);
        nlohmann::ordered_json entry = nlohmann::ordered_json::object();
        entry["rank"] = encode_idset(std::move(ranks));
        entry["children"] = group.children;
        array.push_back(std::move(entry));
    }
    return array;
}

std::string RliteWriter::nodelist() const {
    std::vector<Host> hosts;
    for (const auto& entry : groups_)
        hosts.insert(hosts.end(), entry.second.hosts.begin(), entry.second.hosts.end());
    std::stable_sort(hosts.begin(), hosts.end(), [](const Host& a, const Host& b) { return a.rank < b.rank; });
    std::vector<std::string> names;
    names.reserve(hosts.size());
    for (Host& host : hosts) names.push_back(std::move(host.name));
    return encode_hostlist(names);
}

nlohmann::ordered_json RliteWriter::properties() const {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (const auto& [property, ranks] : property_ranks_) object[property] = encode_idset(ranks);
    return object;
}

Status RliteWriter::flush(std::ostream& out) {
    // The reference refuses to print an empty R_lite, with EINVAL; this is
    // also what a failed match reports with -F rlite.
    if (empty()) return make_error(Errc::kInvalid, "no node to print in R_lite");
    out << json_text(r_lite()) << '\n';
    reset();
    return ok_status();
}

void RliteWriter::reset() {
    groups_.clear();
    property_ranks_.clear();
}

void RliteWriter::forget_unclaimed() {
    core_ids_.clear();
    gpu_ids_.clear();
}

}  // namespace rq
