#include "queue/events.h"

#include <nlohmann/json.hpp>

#include "resource/interner.h"
#include "utilities/hostlist.h"

namespace rq::queue {

Status EventLog::open_json(const std::string& path) {
    json_path_ = path;
    json_.open(path, std::ios::trunc);
    if (!json_) return make_error(Errc::kIo, "--events-json: cannot open " + path + " for writing");
    return ok_status();
}

namespace {

std::string joined(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "" : ",") + n;
    return s;
}

}  // namespace

void EventLog::emit(const Event& e) {
    if (!active()) return;
    if (lines_ != nullptr) {
        std::ostream& o = *lines_;
        // Job 0: a submit the queue refused (no id was given out).
        o << "EVENT " << e.time << ' ' << e.event << " job=";
        if (e.job != 0)
            o << e.job;
        else
            o << '-';
        o << " queue=" << e.queue;
        if (!e.name.empty()) o << " name=" << e.name;
        for (auto& [k, v] : e.fields) o << ' ' << k << '=' << v;
        if (e.resources != nullptr) o << " resources=" << joined(*e.resources);
        o << '\n';
    }
    if (json_.is_open()) {
        nlohmann::json j;
        j["time"] = e.time;
        j["event"] = e.event;
        if (e.job != 0) j["job"] = e.job;
        j["queue"] = e.queue;
        if (!e.name.empty()) j["name"] = e.name;
        for (auto& [k, v] : e.fields) {
            std::string value = v;
            if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
            char* end = nullptr;
            long long n = std::strtoll(value.c_str(), &end, 10);
            if (!value.empty() && end != nullptr && *end == '\0')
                j[k] = n;
            else
                j[k] = value;
        }
        if (e.resources != nullptr) j["resources"] = *e.resources;
        json_ << j.dump() << '\n';
    }
}

Status EventLog::check_json_written() {
    if (!json_.is_open()) return ok_status();
    json_.flush();
    if (!json_) return make_error(Errc::kIo, "--events-json: error writing " + json_path_);
    return ok_status();
}

void EventLog::flush() {
    if (lines_ != nullptr) lines_->flush();
    if (json_.is_open()) json_.flush();
}

void ResourceCollector::vertex(const ResourceGraph& graph, const VertexEmission& v) {
    // Post-order: a vertex is a leaf when the previous emission was not
    // deeper than it.
    bool leaf = names_.empty() && last_level_ == 0 ? true : last_level_ <= v.level;
    last_level_ = v.level;
    held_.push_back(v.vertex);
    TypeId type = graph.type(v.vertex);
    if (!keep_names_) {
        if (leaf && type == types::kCore) cores_ += 1;
        return;
    }
    if (type == types::kNode) {
        std::string node(graph.name(v.vertex));
        for (size_t i = unqualified_; i < names_.size(); ++i) names_[i] = node + ":" + names_[i];
        if (leaf) names_.push_back(node);
        unqualified_ = names_.size();
        return;
    }
    if (!leaf) return;
    names_.emplace_back(graph.name(v.vertex));
    if (type == types::kCore) cores_ += 1;
}

void ResourceCollector::edge(const ResourceGraph& graph, EdgeId e, bool) {
    // An edge into a leaf keeps its weight: only edges to vertices with a
    // subtree plan are re-weighted (spec/traversal.md §4.4), and a leaf has
    // none. Skipped, as a weight seen before: a replay takes thousands of
    // cores a match.
    if (graph.is_leaf(graph.target(e))) return;
    if (e >= shadow_.size()) {
        shadow_.resize(e + 1u, 0);
        seen_.resize(e + 1u, false);
    }
    held_edges_.push_back(e);
    uint64_t w = graph.weight(e);
    if (!seen_[e] || shadow_[e] != w) weights_changed_ = true;
    seen_[e] = true;
    shadow_[e] = w;
}

void ResourceCollector::reset() {
    weights_changed_ = false;
    names_.clear();
    held_.clear();
    held_edges_.clear();
    unqualified_ = 0;
    last_level_ = 0;
    cores_ = 0;
}

namespace {

// Splits "node3:core[0-7]" into "node3" and "core[0-7]" (no ':': no node).
std::pair<std::string_view, std::string_view> node_and_leaves(std::string_view name) {
    size_t colon = name.find(':');
    if (colon == std::string_view::npos) return {{}, name};
    return {name.substr(0, colon), name.substr(colon + 1)};
}

}  // namespace

// The leaves of each node as one hostlist ("node3:core[0-7]"), then
// neighbouring nodes with the same leaves as one hostlist of nodes
// ("node[0-99]:core[0-7]"): RFC 22 hostlists (utilities/hostlist.h), so a
// reservation of thousands of cores is a few entries, not one per core
// (docs/queue.md, Events).
void ResourceCollector::compact_names() {
    std::vector<std::string> per_node;
    std::vector<std::string> leaves;
    std::string_view current;
    bool open = false;
    auto close = [&]() {
        if (!open) return;
        std::string text = encode_hostlist(leaves);
        per_node.push_back(current.empty() ? text : std::string(current) + ":" + text);
        leaves.clear();
        open = false;
    };
    for (const std::string& name : names_) {
        auto [node, leaf] = node_and_leaves(name);
        if (open && (node != current || node.empty())) close();
        if (node.empty()) {
            per_node.emplace_back(leaf);
            continue;
        }
        current = node;
        open = true;
        leaves.emplace_back(leaf);
    }
    close();
    compact_.clear();
    std::vector<std::string> nodes;
    std::string_view shared;
    auto flush = [&]() {
        if (nodes.empty()) return;
        compact_.push_back(encode_hostlist(nodes) + ":" + std::string(shared));
        nodes.clear();
    };
    for (const std::string& entry : per_node) {
        auto [node, leaf] = node_and_leaves(entry);
        if (!nodes.empty() && (node.empty() || leaf != shared)) flush();
        if (node.empty()) {
            compact_.push_back(entry);
            continue;
        }
        shared = leaf;
        nodes.emplace_back(node);
    }
    flush();
}

const std::vector<std::string>& ResourceCollector::names() {
    compact_names();
    return compact_;
}

}  // namespace rq::queue
