#include "resource/graphml_reader.h"

#include <expat.h>

#include <charconv>
#include <cstring>
#include <map>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "resource/jgf_reader.h"

namespace rq {

namespace {

struct PendingEdge {
    std::string source, target, subsystem = "containment";
    size_t line = 0;
};

// Expat callbacks feed this; the first error stops the parse.
class GraphmlLoader {
public:
    GraphmlLoader(const std::string& path, ResourceGraph& graph) : path_(path), graph_(graph) {}

    Status run(std::string_view text) {
        XML_Parser parser = XML_ParserCreate("UTF-8");
        if (parser == nullptr) return make_error(Errc::kNoMemory, path_ + ": out of memory creating the XML parser");
        parser_ = parser;
        XML_SetUserData(parser, this);
        XML_SetElementHandler(parser, &GraphmlLoader::on_start, &GraphmlLoader::on_end);
        XML_SetCharacterDataHandler(parser, &GraphmlLoader::on_text);
        // Fed in pieces: XML_Parse takes an int length.
        constexpr size_t kPiece = size_t(1) << 30;
        bool parsed = true;
        for (size_t at = 0; parsed && (at < text.size() || at == 0); at += kPiece) {
            size_t n = std::min(kPiece, text.size() - at);
            bool last = at + n >= text.size();
            parsed = XML_Parse(parser, text.data() + at, static_cast<int>(n), last) == XML_STATUS_OK;
            if (last) break;
        }
        if (!parsed && status_.ok())
            status_ = fail(std::string("malformed XML: ") + XML_ErrorString(XML_GetErrorCode(parser)));
        XML_ParserFree(parser);
        parser_ = nullptr;
        RQ_TRY(status_);
        if (!seen_graphml_) return make_error(Errc::kInvalid, path_ + ": not GraphML (no <graphml> element)");
        for (auto& [id, name] : keys_)
            if (name == "gen_method" || name == "e_subsystem")
                return make_error(Errc::kInvalid, path_ + ": a GRUG recipe (it declares " + name +
                                                      "), not a graph written by -g graphml: load it with -f grug");
        return finish();
    }

private:
    static void on_start(void* self, const XML_Char* name, const XML_Char** attrs) {
        static_cast<GraphmlLoader*>(self)->start(name, attrs);
    }
    static void on_end(void* self, const XML_Char* name) { static_cast<GraphmlLoader*>(self)->end(name); }
    static void on_text(void* self, const XML_Char* s, int len) {
        auto* me = static_cast<GraphmlLoader*>(self);
        if (me->in_data_) me->text_.append(s, static_cast<size_t>(len));
    }

    static std::string attr(const XML_Char** attrs, const char* key) {
        for (size_t i = 0; attrs[i] != nullptr; i += 2)
            if (std::strcmp(attrs[i], key) == 0) return attrs[i + 1];
        return {};
    }

    size_t line() const { return parser_ != nullptr ? XML_GetCurrentLineNumber(parser_) : 0; }
    Error fail(const std::string& what, size_t at = 0) const {
        return make_error(Errc::kInvalid, path_ + ":" + std::to_string(at != 0 ? at : line()) + ": " + what);
    }
    void stop(Error e) {
        if (status_.ok()) status_ = std::move(e);
        XML_StopParser(parser_, XML_FALSE);
    }

    void start(const char* name, const XML_Char** attrs) {
        if (!status_.ok()) return;
        if (std::strcmp(name, "graphml") == 0) {
            seen_graphml_ = true;
        } else if (std::strcmp(name, "key") == 0) {
            keys_[attr(attrs, "id")] = attr(attrs, "attr.name");
        } else if (std::strcmp(name, "node") == 0) {
            if (in_node_ || in_edge_) return stop(fail("a <node> inside a <node> or <edge>"));
            node_ = {};
            node_id_ = attr(attrs, "id");
            if (node_id_.empty()) return stop(fail("a <node> without an id"));
            node_line_ = line();
            in_node_ = true;
        } else if (std::strcmp(name, "edge") == 0) {
            if (in_node_ || in_edge_) return stop(fail("an <edge> inside a <node> or <edge>"));
            edge_ = PendingEdge{attr(attrs, "source"), attr(attrs, "target"), "containment", line()};
            in_edge_ = true;
        } else if (std::strcmp(name, "data") == 0 && (in_node_ || in_edge_)) {
            auto key = keys_.find(attr(attrs, "key"));
            data_name_ = key != keys_.end() ? key->second : std::string();
            text_.clear();
            in_data_ = true;
        }
    }

    void end(const char* name) {
        if (!status_.ok()) return;
        if (std::strcmp(name, "data") == 0 && in_data_) {
            in_data_ = false;
            if (in_node_) node_[data_name_] = text_;
            if (in_edge_ && data_name_ == "subsystem") edge_.subsystem = text_;
        } else if (std::strcmp(name, "node") == 0 && in_node_) {
            in_node_ = false;
            Status added = add_vertex();
            if (!added) stop(added.error());
        } else if (std::strcmp(name, "edge") == 0 && in_edge_) {
            in_edge_ = false;
            edges_.push_back(std::move(edge_));
        }
    }

    Result<int64_t> integer(const char* key, int64_t fallback) const {
        auto it = node_.find(key);
        if (it == node_.end()) return fallback;
        const std::string& s = it->second;
        int64_t v = 0;
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || end != s.data() + s.size())
            return fail("node " + node_id_ + ": " + key + " is not an integer: \"" + s + "\"", node_line_);
        return v;
    }

    std::string text(const char* key, const std::string& fallback) const {
        auto it = node_.find(key);
        return it != node_.end() ? it->second : fallback;
    }

    Status add_vertex() {
        auto type_it = node_.find("type");
        if (type_it == node_.end() || type_it->second.empty())
            return fail("node " + node_id_ + " has no type", node_line_);
        if (vertex_of_.count(node_id_) != 0) return fail("duplicate node id " + node_id_, node_line_);
        auto id = integer("id", -1);
        auto uniq = integer("uniq_id", -1);
        auto rank = integer("rank", -1);
        auto size = integer("size", 1);
        auto removed = integer("removed", 0);
        for (auto* r : {&id, &uniq, &rank, &size, &removed})
            if (!*r) return r->error();
        if (*size < 0) return fail("node " + node_id_ + ": negative size", node_line_);
        std::string status = text("status", "up");
        if (status != "up" && status != "down")
            return fail("node " + node_id_ + ": status is neither up nor down: \"" + status + "\"", node_line_);

        TypeId type = graph_.types().intern_always(type_it->second);
        if (type == kNoId) return fail("too many resource types at " + type_it->second, node_line_);
        std::vector<std::pair<SubsystemId, std::string>> paths, aliases;
        RQ_TRY(parse_paths(text("paths", ""), paths, "paths"));
        RQ_TRY(parse_paths(text("aliases", ""), aliases, "aliases"));
        PropertyMap properties;
        RQ_TRY(parse_properties(text("properties", ""), properties));

        std::string basename = text("basename", type_it->second);
        std::string name = text("name", basename + (*id >= 0 ? std::to_string(*id) : std::string()));
        std::string unit = text("unit", "");
        VertexSpec spec;
        spec.type = type;
        spec.basename = basename;
        spec.name = name;
        spec.id = *id;
        spec.uniq_id = *uniq;
        spec.rank = *rank;
        spec.size = *size;
        spec.unit = unit;
        spec.up = status == "up";
        VertexId v = graph_.add_vertex(spec);
        vertex_of_.emplace(node_id_, v);
        for (auto& [s, p] : paths) graph_.set_path(v, s, p);
        for (auto& [k, value] : properties) graph_.set_property(v, k, value);
        if (*removed != 0) {
            removed_.push_back(v);
            return ok_status();
        }
        for (auto& alias : aliases) graph_.index_path(v, alias.second);
        for (auto& [s, p] : paths) {
            if (p.empty()) continue;  // a path GRUG read before setting it
            if (is_root_path(p)) {
                if (graph_.has_root(s))
                    return fail("node " + node_id_ + ": a second root of subsystem " + graph_.subsystems().name(s),
                                node_line_);
                graph_.set_root(s, v);
            }
            graph_.index_path(v, p);
        }
        return ok_status();
    }

    Result<SubsystemId> subsystem(const std::string& name, size_t at) {
        SubsystemId s = graph_.subsystems().intern(name);
        if (s == kNoId) return fail("too many subsystems at " + name, at);
        return s;
    }

    Status parse_paths(const std::string& text, std::vector<std::pair<SubsystemId, std::string>>& out,
                       const char* what) {
        size_t at = 0;
        while (at < text.size()) {
            size_t end = text.find(';', at);
            if (end == std::string::npos) end = text.size();
            std::string item = text.substr(at, end - at);
            size_t eq = item.find('=');
            if (eq == std::string::npos || eq == 0 || (eq + 1 < item.size() && item[eq + 1] != '/'))
                return fail("node " + node_id_ + ": malformed " + what + " item \"" + item + "\" (subsystem=/path)",
                            node_line_);
            auto s = subsystem(item.substr(0, eq), node_line_);
            if (!s) return s.error();
            out.emplace_back(*s, item.substr(eq + 1));
            at = end + 1;
        }
        return ok_status();
    }

    Status parse_properties(const std::string& text, PropertyMap& out) const {
        if (text.empty()) return ok_status();
        auto json = nlohmann::json::parse(text, nullptr, false);
        if (json.is_discarded() || !json.is_object())
            return fail("node " + node_id_ + ": properties is not a JSON object", node_line_);
        for (auto& [k, value] : json.items()) {
            if (!value.is_string())
                return fail("node " + node_id_ + ": property " + k + " is not a string", node_line_);
            out[k] = value.get<std::string>();
        }
        return ok_status();
    }

    Status finish() {
        for (const PendingEdge& e : edges_) {
            auto src = vertex_of_.find(e.source);
            auto dst = vertex_of_.find(e.target);
            if (src == vertex_of_.end() || dst == vertex_of_.end())
                return fail("edge " + e.source + " -> " + e.target + ": unknown node", e.line);
            auto s = subsystem(e.subsystem, e.line);
            if (!s) return s.error();
            graph_.add_edge(src->second, dst->second, *s);
        }
        graph_.detach_vertices(removed_);
        return ok_status();
    }

    const std::string& path_;
    ResourceGraph& graph_;
    XML_Parser parser_ = nullptr;
    Status status_;
    bool seen_graphml_ = false;
    std::unordered_map<std::string, std::string> keys_;  // key id -> attr.name
    std::unordered_map<std::string, VertexId> vertex_of_;
    std::vector<VertexId> removed_;
    std::vector<PendingEdge> edges_;
    // the element being read
    bool in_node_ = false, in_edge_ = false, in_data_ = false;
    std::map<std::string, std::string> node_;  // attr.name -> text
    std::string node_id_;
    size_t node_line_ = 0;
    PendingEdge edge_;
    std::string data_name_;
    std::string text_;
};

}  // namespace

Status read_graphml(std::string_view text, const std::string& path, ResourceGraph& graph) {
    return GraphmlLoader(path, graph).run(text);
}

}  // namespace rq
