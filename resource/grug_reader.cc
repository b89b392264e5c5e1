// GraphML -> Recipe (spec/grug.md §1).
#include <boost/lexical_cast.hpp>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <map>
#include <sstream>
#include <unordered_map>

#include "resource/grug.h"

namespace rq {

namespace pt = boost::property_tree;

GenMethod RecipeEdge::method() const {
    if (gen_method == "MULTIPLY") return GenMethod::kMultiply;
    if (gen_method == "ASSOCIATE_IN") return GenMethod::kAssociateIn;
    if (gen_method == "ASSOCIATE_BY_PATH_IN") return GenMethod::kAssociateByPathIn;
    return GenMethod::kUnknown;
}

namespace {

// The attribute names the loader binds (spec/grug.md §1.1). Others are
// ignored.
enum class Field {
    kRoot, kType, kBasename, kSize, kUnit, kSubsystem,                    // node
    kESubsystem, kRelation, kRRelation, kGenMethod, kIdScope, kIdStart,   // edge
    kIdStride, kMultiScale, kAsTgtSubsystem, kAsTgtUplvl, kAsSrcUplvl,
};

const std::map<std::string, Field>& node_fields() {
    static const std::map<std::string, Field> m = {
        {"root", Field::kRoot},         {"type", Field::kType}, {"basename", Field::kBasename},
        {"size", Field::kSize},         {"unit", Field::kUnit}, {"subsystem", Field::kSubsystem}};
    return m;
}

const std::map<std::string, Field>& edge_fields() {
    static const std::map<std::string, Field> m = {
        {"e_subsystem", Field::kESubsystem},
        {"relation", Field::kRelation},
        {"rrelation", Field::kRRelation},
        {"gen_method", Field::kGenMethod},
        {"id_scope", Field::kIdScope},
        {"id_start", Field::kIdStart},
        {"id_stride", Field::kIdStride},
        {"multi_scale", Field::kMultiScale},
        {"as_tgt_subsystem", Field::kAsTgtSubsystem},
        {"as_tgt_uplvl", Field::kAsTgtUplvl},
        {"as_src_uplvl", Field::kAsSrcUplvl}};
    return m;
}

struct Key {
    std::string id;
    bool for_node = false, for_edge = false;
    std::string attr_name;
    bool has_default = false;
    std::string default_text;
};

Error read_error(std::string detail = {}) { return make_error(Errc::kInvalid, kGrugReadError, std::move(detail)); }

Error element_error(std::string_view source, const std::string& what) {
    return make_error(Errc::kInvalid, std::string(source) + ": " + what);
}

// Line numbers for messages. Boost's property tree keeps none, so on an
// error (only then) the element is found again in the text.
class Locator {
public:
    Locator(std::string_view text, std::string_view source) : text_(text), source_(source) {}

    // "file:L: " for the start tag `<tag ...>` whose attributes include
    // every name="value" of `attributes`; "file: " if not found.
    std::string at_tag(const char* tag, std::initializer_list<std::pair<const char*, std::string>> attributes,
                       size_t* end = nullptr) const {
        const std::string open = std::string("<") + tag;
        for (size_t at = text_.find(open); at != std::string_view::npos; at = text_.find(open, at + 1)) {
            size_t close = text_.find('>', at);
            if (close == std::string_view::npos) break;
            std::string_view start_tag = text_.substr(at, close - at);
            bool all = true;
            for (auto& [name, value] : attributes) all = all && has_attribute(start_tag, name, value);
            if (!all) continue;
            if (end != nullptr) *end = close;
            return prefix(at);
        }
        return std::string(source_) + ": ";
    }

    // "file:L: " for the <data key="key"> inside the element found by
    // at_tag(tag, attributes), or that element's own position.
    std::string at_data(const char* tag, std::initializer_list<std::pair<const char*, std::string>> attributes,
                        const std::string& key) const {
        size_t end = std::string_view::npos;
        std::string element = at_tag(tag, attributes, &end);
        if (end == std::string_view::npos) return element;
        size_t stop = text_.find(std::string("</") + tag, end);
        for (size_t at = text_.find("<data", end); at != std::string_view::npos && at < stop;
             at = text_.find("<data", at + 1)) {
            size_t close = text_.find('>', at);
            if (close != std::string_view::npos && has_attribute(text_.substr(at, close - at), "key", key))
                return prefix(at);
        }
        return element;
    }

    std::string at_line(size_t line) const { return std::string(source_) + ":" + std::to_string(line) + ": "; }

private:
    static bool has_attribute(std::string_view start_tag, const char* name, const std::string& value) {
        for (char quote : {'"', '\''}) {
            std::string needle = std::string(name) + "=" + quote + value + quote;
            for (size_t at = start_tag.find(needle); at != std::string_view::npos;
                 at = start_tag.find(needle, at + 1))
                if (at > 0 && std::isspace(static_cast<unsigned char>(start_tag[at - 1]))) return true;
        }
        return false;
    }
    std::string prefix(size_t offset) const {
        return at_line(1 + std::count(text_.begin(), text_.begin() + offset, '\n'));
    }

    std::string_view text_;
    std::string_view source_;
};

// Where an element is, for messages: its tag and identifying attributes.
struct Place {
    const char* tag;
    std::string id;              // GraphML id (may be empty for an edge)
    std::string source, target;  // edges
    std::string locate(const Locator& at, const std::string& key = {}) const {
        if (std::string(tag) == "node" || !id.empty()) {
            return key.empty() ? at.at_tag(tag, {{"id", id}}) : at.at_data(tag, {{"id", id}}, key);
        }
        return key.empty() ? at.at_tag(tag, {{"source", source}, {"target", target}})
                           : at.at_data(tag, {{"source", source}, {"target", target}}, key);
    }
};

// Strict lexical conversion, as Boost's GraphML reader does.
template <class T>
bool convert(const std::string& text, T& out) {
    return boost::conversion::try_lexical_convert(text, out);
}

bool set_node_field(RecipeVertex& v, Field f, const std::string& text) {
    switch (f) {
    case Field::kRoot: return convert(text, v.root);
    case Field::kType: v.type = text; return true;
    case Field::kBasename: v.basename = text; return true;
    case Field::kSize: { long n; if (!convert(text, n)) return false; v.size = n; return true; }
    case Field::kUnit: v.unit = text; return true;
    case Field::kSubsystem: v.subsystem = text; return true;
    default: return true;
    }
}

bool set_edge_field(RecipeEdge& e, Field f, const std::string& text) {
    switch (f) {
    case Field::kESubsystem: e.e_subsystem = text; return true;
    case Field::kRelation: e.relation = text; return true;
    case Field::kRRelation: e.rrelation = text; return true;
    case Field::kGenMethod: e.gen_method = text; return true;
    case Field::kIdScope: return convert(text, e.id_scope);
    case Field::kIdStart: return convert(text, e.id_start);
    case Field::kIdStride: return convert(text, e.id_stride);
    case Field::kMultiScale: return convert(text, e.multi_scale);
    case Field::kAsTgtSubsystem: e.as_tgt_subsystem = text; return true;
    case Field::kAsTgtUplvl: return convert(text, e.as_tgt_uplvl);
    case Field::kAsSrcUplvl: return convert(text, e.as_src_uplvl);
    default: return true;
    }
}

// XML attribute `name` of an element ("" if absent). The path uses '/' as
// separator because attribute names contain dots ("attr.name").
std::string attr(const pt::ptree& element, const char* name) {
    return element.get<std::string>(pt::ptree::path_type(std::string("<xmlattr>/") + name, '/'), "");
}

// The detail of a value the reference cannot convert: where, which key,
// what value, what was expected.
std::string bad_value(const std::string& where, const std::string& what, const std::string& key,
                      const std::string& value) {
    return where + what + ": key \"" + key + "\": \"" + value + "\" is not " +
           (key == "size" ? "a whole number" : "an integer");
}

// Applies the key defaults and then the <data> children of one element.
template <class Record, class Setter>
Status fill(Record& record, const pt::ptree& element, const std::string& what, const Place& place,
            const std::vector<Key>& keys, bool is_node,
            const std::map<std::string, Field>& fields, Setter set, std::string_view source,
            const Locator& locator) {
    for (auto& key : keys) {
        if (!(is_node ? key.for_node : key.for_edge) || !key.has_default) continue;
        auto f = fields.find(key.attr_name);
        if (f != fields.end() && !set(record, f->second, key.default_text))
            return read_error(bad_value(locator.at_tag("key", {{"id", key.id}}), "default of <key id=\"" + key.id + "\">",
                                        key.attr_name, key.default_text));
    }
    for (auto& [tag, child] : element) {
        if (tag != "data") continue;
        std::string key_id = attr(child, "key");
        // The last declaration of an id wins, as with a map keyed by id.
        auto k = std::find_if(keys.rbegin(), keys.rend(), [&](const Key& x) { return x.id == key_id; });
        if (k == keys.rend())
            return element_error(source, what + ": <data key=\"" + key_id + "\"> refers to an undeclared key");
        if (!(is_node ? k->for_node : k->for_edge)) continue;
        auto f = fields.find(k->attr_name);
        if (f != fields.end() && !set(record, f->second, child.data()))
            return read_error(bad_value(place.locate(locator, key_id), what, k->attr_name, child.data()));
    }
    return ok_status();
}

// The id of the <data> key that set a node's size (the last one binding
// "size"), or of the key whose default did.
std::string size_key(const std::vector<Key>& keys, const pt::ptree& element) {
    std::string found;
    for (auto& key : keys)
        if (key.for_node && key.attr_name == "size" && key.has_default) found = key.id;
    for (auto& [tag, child] : element) {
        if (tag != "data") continue;
        std::string id = attr(child, "key");
        for (auto& key : keys)
            if (key.id == id && key.for_node && key.attr_name == "size") found = id;
    }
    return found;
}

}  // namespace

Result<Recipe> parse_grug(std::string_view text, std::string_view source) {
    const Locator locator(text, source);
    pt::ptree doc;
    try {
        std::istringstream in{std::string(text)};
        pt::read_xml(in, doc, pt::xml_parser::no_comments);
    } catch (const pt::xml_parser_error& e) {
        return read_error(locator.at_line(e.line()) + "malformed XML: " + e.message());
    } catch (const pt::ptree_error& e) {
        return read_error(std::string(source) + ": malformed XML: " + e.what());
    }
    auto root = doc.get_child_optional("graphml");
    if (!root) return read_error(std::string(source) + ": no <graphml> element at the top");

    // Key declarations, in document order; defaults are applied in that
    // order.
    std::vector<Key> keys;
    for (auto& [tag, child] : *root) {
        if (tag != "key") continue;
        Key k;
        k.id = attr(child, "id");
        std::string for_what = attr(child, "for");
        k.for_node = for_what == "node" || for_what == "all";
        k.for_edge = for_what == "edge" || for_what == "all";
        k.attr_name = attr(child, "attr.name");
        if (auto d = child.get_child_optional("default")) {
            k.has_default = true;
            k.default_text = d->data();
        }
        keys.push_back(std::move(k));
    }

    Recipe recipe;
    std::unordered_map<std::string, size_t> node_index;
    std::vector<const pt::ptree*> edge_elements;
    for (auto& [tag, graph] : *root) {
        if (tag != "graph") continue;
        for (auto& [etag, element] : graph) {
            if (etag == "node") {
                RecipeVertex v;
                v.xml_id = attr(element, "id");
                const Place place{"node", v.xml_id, {}, {}};
                const std::string what = "node \"" + v.xml_id + "\"";
                RQ_TRY(fill(v, element, what, place, keys, true, node_fields(), set_node_field, source, locator));
                // The reference accepts a negative size and builds a
                // resource that can never be matched sensibly.
                if (v.size < 0)
                    return make_error(Errc::kInvalid, place.locate(locator, size_key(keys, element)) + what +
                                                          ": key \"size\": " + std::to_string(v.size) +
                                                          " is negative; a size is 0 or more");
                if (!node_index.emplace(v.xml_id, recipe.vertices.size()).second)
                    return element_error(source, "node \"" + v.xml_id + "\" is declared twice");
                recipe.vertices.push_back(std::move(v));
            } else if (etag == "edge") {
                edge_elements.push_back(&element);
            }
        }
    }
    recipe.out_edges.resize(recipe.vertices.size());
    for (const pt::ptree* element : edge_elements) {
        RecipeEdge e;
        e.xml_id = attr(*element, "id");
        std::string src = attr(*element, "source"), dst = attr(*element, "target");
        std::string what = "edge \"" + (e.xml_id.empty() ? src + "->" + dst : e.xml_id) + "\"";
        auto s = node_index.find(src), t = node_index.find(dst);
        if (s == node_index.end() || t == node_index.end())
            return element_error(source, what + " connects an unknown node");
        e.source = s->second;
        e.target = t->second;
        const Place place{"edge", e.xml_id, src, dst};
        RQ_TRY(fill(e, *element, what, place, keys, false, edge_fields(), set_edge_field, source, locator));
        recipe.out_edges[e.source].push_back(recipe.edges.size());
        recipe.edges.push_back(std::move(e));
    }
    return recipe;
}

Status validate_recipe(const Recipe& recipe, std::string_view source) {
    bool has_root = false;
    for (auto& v : recipe.vertices) has_root = has_root || v.root == 1;
    if (!has_root) return element_error(source, "no node is marked root (data key \"root\" = 1)");

    std::vector<int> in_degree(recipe.vertices.size(), 0);
    for (auto& e : recipe.edges) {
        std::string what = "edge \"" + (e.xml_id.empty() ? recipe.vertices[e.source].xml_id + "->" +
                                                               recipe.vertices[e.target].xml_id
                                                         : e.xml_id) + "\"";
        if (e.method() == GenMethod::kUnknown)
            return element_error(source, what + ": unknown gen_method \"" + e.gen_method + "\"");
        if (e.method() == GenMethod::kMultiply && e.multi_scale < 0)
            return element_error(source, what + ": negative multi_scale " + std::to_string(e.multi_scale));
        if (++in_degree[e.target] > 1)
            return element_error(source, "node \"" + recipe.vertices[e.target].xml_id +
                                             "\" is the target of more than one edge: the recipe is not a forest");
    }
    // With in-degree <= 1 everywhere, the recipe is a forest iff it has no
    // cycle, i.e. iff every vertex reaches a vertex with in-degree 0.
    std::vector<size_t> parent(recipe.vertices.size(), SIZE_MAX);
    for (auto& e : recipe.edges) parent[e.target] = e.source;
    for (size_t v = 0; v < recipe.vertices.size(); ++v) {
        size_t u = v, steps = 0;
        while (parent[u] != SIZE_MAX && steps <= recipe.vertices.size()) u = parent[u], ++steps;
        if (steps > recipe.vertices.size())
            return element_error(source, "node \"" + recipe.vertices[v].xml_id +
                                             "\" lies on a cycle: the recipe is not a forest");
    }
    return ok_status();
}

}  // namespace rq
