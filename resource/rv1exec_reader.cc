#include "resource/rv1exec_reader.h"

#include <algorithm>
#include <limits>

#include <nlohmann/json.hpp>

#include "utilities/hostlist.h"
#include "utilities/idset.h"

namespace rq {

using Json = nlohmann::ordered_json;  // `children` keys are used in document order

namespace {

Error r_error(const std::string& what) { return make_error(Errc::kInvalid, "parse_rv1exec: " + what + "."); }

// A nlohmann parse error without its "[json.exception...] parse error at
// line L, column C: " preamble, but with the position.
std::string json_error_text(const nlohmann::json::exception& e) {
    std::string what = e.what();
    size_t at = what.find("parse error at ");
    return at == std::string::npos ? what : what.substr(at + 15);
}

const Json* member(const Json& object, const char* key) {
    if (!object.is_object()) return nullptr;
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

// The ids of an idset string member; `what` names it in messages.
Result<std::vector<int64_t>> idset_member(const Json* value, const std::string& what) {
    if (value == nullptr || !value->is_string()) return r_error(what + " is not an idset string");
    auto ids = decode_idset(value->get<std::string>());
    if (!ids) return r_error(what + ": " + ids.message());
    return ids;
}

Result<Rv1Entry> parse_entry(const Json& element, size_t index) {
    std::string where = "R_lite[" + std::to_string(index) + "]";
    Rv1Entry entry;
    auto ranks = idset_member(member(element, "rank"), where + ".rank");
    if (!ranks) return ranks.error();
    entry.ranks = std::move(*ranks);
    const Json* children = member(element, "children");
    if (children == nullptr || !children->is_object()) return r_error(where + ".children is not an object");
    for (auto it = children->begin(); it != children->end(); ++it) {
        auto ids = idset_member(&it.value(), where + ".children." + it.key());
        if (!ids) return ids.error();
        entry.children.emplace_back(it.key(), std::move(*ids));
    }
    return entry;
}

// Appends the hosts of every `nodelist` string to `hosts`.
Status parse_nodelist(const Json& nodelist, std::vector<std::string>& hosts) {
    for (const Json& item : nodelist) {
        if (!item.is_string()) return r_error("nodelist holds a non-string");
        auto expanded = decode_hostlist(item.get<std::string>());
        if (!expanded) return r_error("nodelist: " + expanded.message());
        if (hosts.size() + expanded->size() > static_cast<size_t>(kMaxExpandedHosts))
            return r_error("nodelist names too many hosts");
        hosts.insert(hosts.end(), expanded->begin(), expanded->end());
    }
    return ok_status();
}

Status parse_properties(const Json& properties, std::map<int64_t, PropertyMap>& out) {
    if (!properties.is_object()) return r_error("properties is not an object");
    for (auto it = properties.begin(); it != properties.end(); ++it) {
        auto ranks = idset_member(&it.value(), "properties." + it.key());
        if (!ranks) return ranks.error();
        for (int64_t rank : *ranks) out[rank][it.key()] = "";
    }
    return ok_status();
}

}  // namespace

const std::string* Rv1Exec::host_of(int64_t rank) const {
    auto it = std::lower_bound(ranks.begin(), ranks.end(), rank);
    if (it == ranks.end() || *it != rank) return nullptr;
    auto index = static_cast<size_t>(it - ranks.begin());
    return index < hosts.size() ? &hosts[index] : nullptr;
}

const PropertyMap& Rv1Exec::properties_of(int64_t rank) const {
    static const PropertyMap kNone;
    auto it = properties.find(rank);
    return it == properties.end() ? kNone : it->second;
}

Result<Rv1Exec> parse_rv1exec(std::string_view text, bool need_hosts) {
    Json json;
    try {
        json = Json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception& e) {
        return r_error("R is not JSON: " + json_error_text(e));
    }
    const Json* version = member(json, "version");
    if (version == nullptr || !version->is_number_integer()) return r_error("R has no integer version");
    if (!version->is_number_unsigned() || version->get<uint64_t>() != 1)
        return r_error("R version " + version->dump() + " is not supported (must be 1)");
    const Json* execution = member(json, "execution");
    const Json* rlite = execution ? member(*execution, "R_lite") : nullptr;
    const Json* nodelist = execution ? member(*execution, "nodelist") : nullptr;
    if (rlite == nullptr || !rlite->is_array()) return r_error("execution.R_lite is missing or not an array");
    const bool hostless = nodelist == nullptr && !need_hosts;
    if (!hostless && (nodelist == nullptr || !nodelist->is_array()))
        return r_error("execution.nodelist is missing or not an array");

    Rv1Exec r;
    size_t expanded = 0;  // ids held so far: each idset may expand to 2^24, the document no more
    for (size_t i = 0; i < rlite->size(); ++i) {
        auto entry = parse_entry((*rlite)[i], i);
        if (!entry) return entry.error();
        expanded += entry->ranks.size();
        for (auto& [type, ids] : entry->children) expanded += ids.size();
        if (expanded > static_cast<size_t>(kMaxExpandedIds))
            return r_error("R_lite names more than " + std::to_string(kMaxExpandedIds) + " ranks and resources");
        r.ranks.insert(r.ranks.end(), entry->ranks.begin(), entry->ranks.end());
        r.entries.push_back(std::move(*entry));
    }
    std::sort(r.ranks.begin(), r.ranks.end());
    r.ranks.erase(std::unique(r.ranks.begin(), r.ranks.end()), r.ranks.end());
    if (!hostless) RQ_TRY(parse_nodelist(*nodelist, r.hosts));
    if (!hostless && r.hosts.size() < r.ranks.size())
        return r_error("nodelist names " + std::to_string(r.hosts.size()) + " hosts for " +
                       std::to_string(r.ranks.size()) + " ranks");
    if (const Json* properties = member(*execution, "properties"))
        RQ_TRY(parse_properties(*properties, r.properties));
    return r;
}

Result<HostName> split_hostname(std::string_view host) {
    size_t digits = host.size();
    while (digits > 0 && host[digits - 1] >= '0' && host[digits - 1] <= '9') --digits;
    HostName out;
    if (digits == host.size()) {  // no trailing number
        out.basename = std::string(host);
        return out;
    }
    // All digits: the number is the id but the name stays the basename.
    out.basename = std::string(digits == 0 ? host : host.substr(0, digits));
    int64_t id = 0;
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    for (char c : host.substr(digits)) {
        int d = c - '0';
        if (id > (kMax - d) / 10)
            return make_error(Errc::kRange, "split_hostname: the number of host " + std::string(host) +
                                                " does not fit in int64.");
        id = id * 10 + d;
    }
    out.id = id;
    return out;
}

namespace {

// Builds the graph of one Rv1Exec.
class Rv1Builder {
public:
    explicit Rv1Builder(ResourceGraph& graph) : graph_(graph) {}

    Status build(const Rv1Exec& r) {
        auto root = add_or_update(kNoVertex, types::kCluster, "cluster", "cluster0", 0, -1);
        if (!root) return root.error();
        if (!graph_.has_root(kContainment)) graph_.set_root(kContainment, *root);
        for (const Rv1Entry& entry : r.entries) {
            std::vector<TypeId> child_types;
            for (auto& [type, ids] : entry.children) {
                auto t = intern_type(type);
                if (!t) return t.error();
                child_types.push_back(*t);
            }
            for (int64_t rank : entry.ranks) {
                const std::string& host = *r.host_of(rank);  // parse_rv1exec checked every rank has one
                auto split = split_hostname(host);
                if (!split) return split.error();
                auto node = add_or_update(*root, types::kNode, split->basename, host, split->id, rank);
                if (!node) return node.error();
                for (auto& [key, value] : r.properties_of(rank)) graph_.set_property(*node, key, value);
                for (size_t c = 0; c < entry.children.size(); ++c) {
                    const std::string& type = entry.children[c].first;
                    for (int64_t id : entry.children[c].second) {
                        auto child = add_or_update(*node, child_types[c], type, type + std::to_string(id), id, rank);
                        if (!child) return child.error();
                    }
                }
            }
        }
        return ok_status();
    }

private:
    Result<TypeId> intern_type(const std::string& name) {
        TypeId t = graph_.types().intern_always(name);
        if (t == kNoId) return r_error("too many resource types at " + name);
        return t;
    }

    // Creates a size-1 vertex under `parent` (kNoVertex: the root) with the
    // containment edge parent -> vertex.
    Result<VertexId> add_or_update(VertexId parent, TypeId type, const std::string& basename,
                                   const std::string& name, int64_t id, int64_t rank) {
        std::string path = parent == kNoVertex ? std::string() : std::string(graph_.path(parent, kContainment));
        path += "/" + name;
        bool duplicate = false;
        graph_.by_path().for_each(path, [&](VertexId u) {
            duplicate |= graph_.rank(u) == rank && graph_.id(u) == id && graph_.size(u) == 1 && graph_.type(u) == type;
        });
        if (duplicate)
            return make_error(Errc::kExists, "add_or_update: found duplicate vertex in graph for " + name + ".");
        VertexSpec spec;
        spec.type = type;
        spec.basename = basename;
        spec.name = name;
        spec.id = id;
        spec.rank = rank;
        spec.size = 1;
        VertexId v = graph_.add_vertex(spec);  // uniq_id: the creation index
        graph_.set_path(v, kContainment, path);
        graph_.index_path(v, path);
        if (parent != kNoVertex) graph_.add_edge(parent, v, kContainment);
        return v;
    }

    ResourceGraph& graph_;
};

}  // namespace

Status build_rv1exec_graph(const Rv1Exec& r, ResourceGraph& graph) { return Rv1Builder(graph).build(r); }

double rv1exec_vertex_count(const Rv1Exec& r) {
    double vertices = 1;  // cluster0
    for (const Rv1Entry& entry : r.entries) {
        double per_rank = 1;  // the node
        for (auto& [type, ids] : entry.children) per_rank += static_cast<double>(ids.size());
        vertices += static_cast<double>(entry.ranks.size()) * per_rank;
    }
    return vertices;
}

Status read_rv1exec(std::string_view text, ResourceGraph& graph, double max_vertices) {
    auto r = parse_rv1exec(text);
    if (!r) return r.error();
    double vertices = rv1exec_vertex_count(*r);
    if (vertices > max_vertices)
        return make_error(Errc::kRange, "parse_rv1exec: R names " + std::to_string(static_cast<long long>(vertices)) +
                                            " resources, more than the limit of " +
                                            std::to_string(static_cast<long long>(max_vertices)) + ".");
    return build_rv1exec_graph(*r, graph);
}

}  // namespace rq
