#include "pools/pool_loaders.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <nlohmann/json.hpp>
#include <set>

#include "pools/pool_graph.h"
#include "pools/request.h"

namespace rq::pools {

namespace {

Error bad(const std::string& path, const std::string& where, const std::string& what) {
    return make_error(Errc::kInvalid, path + ": " + where + (where.empty() ? "" : ": ") + what);
}

// A YAML scalar as an amount (non-negative, up to 2^63-1).
bool yaml_amount(const YAML::Node& node, int64_t& out) {
    return node.IsScalar() && parse_amount(node.Scalar(), out);
}

Result<YAML::Node> load_yaml(std::string_view text, const std::string& path) {
    try {
        return YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
        return bad(path, "", std::string("not valid YAML/JSON: ") + e.what());
    }
}

// A YAML list written as a list (`cpus: [[0, 1], [2, 3]]`) in HyperQueue's
// syntax, each value quoted; false if a value cannot be quoted.
bool list_definition(const YAML::Node& node, std::string& out) {
    out += '[';
    for (size_t i = 0; i < node.size(); ++i) {
        if (i) out += ", ";
        const YAML::Node item = node[i];
        if (item.IsSequence()) {
            if (!list_definition(item, out)) return false;
        } else if (item.IsScalar() && item.Scalar().find('"') == std::string::npos) {
            out += '"' + item.Scalar() + '"';
        } else {
            return false;
        }
    }
    out += ']';
    return true;
}

// GRUG's guard, the message naming the pool file instead of "the recipe".
Status check_size(double vertices, const GrugLimits& limits) {
    return check_grug_size(vertices, limits, "the pools");
}

}  // namespace

Result<Machine> machine_from_arguments(const std::vector<std::string>& arguments) {
    Worker w;
    w.name = "worker0";
    std::set<std::string> names;
    for (const std::string& a : arguments) {
        auto pool = parse_resource_argument(a);
        if (!pool) return make_error(Errc::kInvalid, "--resource " + a + ": " + pool.message());
        if (!names.insert(pool->name).second)
            return make_error(Errc::kInvalid, "--resource " + a + ": pool " + pool->name + " is defined twice");
        w.pools.push_back(std::move(*pool));
    }
    Machine m;
    m.workers.push_back(std::move(w));
    return m;
}

Result<Machine> read_hq_workers(std::string_view text, const std::string& path, const GrugLimits& limits) {
    auto doc = load_yaml(text, path);
    if (!doc) return doc.error();
    YAML::Node list = doc->IsMap() ? (*doc)["workers"] : *doc;
    if (!list || !list.IsSequence()) return bad(path, "", "expected a list of workers (or a map with `workers:`)");
    Machine m;
    std::set<std::string> names;
    double vertices = 1;  // cluster0
    for (size_t i = 0; i < list.size(); ++i) {
        const YAML::Node w = list[i];
        std::string where = "workers[" + std::to_string(i) + "]";
        if (!w.IsMap()) return bad(path, where, "a worker must be a mapping");
        Worker worker;
        if (!w["name"] || !w["name"].IsScalar() || w["name"].Scalar().empty())
            return bad(path, where, "a worker needs a `name`");
        worker.name = w["name"].Scalar();
        if (w["count"]) {
            if (!yaml_amount(w["count"], worker.count) || worker.count < 1 || worker.count > (1 << 24))
                return bad(path, where + ".count", "must be an integer between 1 and 2^24");
            worker.numbered = true;
        }
        for (auto it = w.begin(); it != w.end(); ++it) {
            std::string key = it->first.as<std::string>("");
            if (key != "name" && key != "count" && key != "resources")
                return bad(path, where, "unknown key `" + key + "` (expected name, count, resources)");
        }
        YAML::Node resources = w["resources"];
        if (resources && !resources.IsMap()) return bad(path, where + ".resources", "must be a mapping NAME: DEF");
        std::set<std::string> pools;
        if (resources) {
            for (auto it = resources.begin(); it != resources.end(); ++it) {
                std::string name = it->first.as<std::string>("");
                std::string definition;
                if (it->second.IsScalar())
                    definition = it->second.Scalar();
                else if (!it->second.IsSequence() || !list_definition(it->second, definition))
                    return bad(path, where + ".resources." + name,
                               "a definition must be a string such as \"4x8\" or \"sum(1024)\", or a list");
                auto pool = parse_pool_definition(name, definition);
                if (!pool) return bad(path, where + ".resources." + name, pool.message());
                if (!pools.insert(name).second) return bad(path, where + ".resources." + name, "defined twice");
                worker.pools.push_back(std::move(*pool));
            }
        }
        vertices += worker_vertices(worker) * double(worker.count);
        if (Status fits = check_size(vertices, limits); !fits) return bad(path, where, fits.message());
        for (int64_t k = 0; k < worker.count; ++k) {
            std::string n = worker.numbered ? worker.name + std::to_string(k) : worker.name;
            if (!names.insert(n).second) return bad(path, where, "worker name " + n + " is used twice");
        }
        m.workers.push_back(std::move(worker));
    }
    return m;
}

namespace {

// canary takes any string as an id (src/_canary/resource_pool/schemas.py:12-16),
// but joins ids with ',' into CANARY_<NAME>_IDS (job.py:523-526): an id
// holding ',' would read back as two, and NUL, a line break or '=' cannot
// be one NAME=value line of -F env (docs/differences.md, canary).
std::string shown_id(const std::string& id) {
    std::string out;
    for (char c : id) out += c == '\0' ? std::string("\\0") : c == '\n' ? std::string("\\n") : c == '\r' ? std::string("\\r") : std::string(1, c);
    return out;
}

Status check_canary_id(const std::string& id) {
    size_t bad = id.find_first_of(std::string("\0\n\r=,", 5));
    if (bad == std::string::npos) return ok_status();
    char c = id[bad];
    const char* what = c == '\0' ? "NUL" : c == '\n' || c == '\r' ? "a line break" : c == '=' ? "'='" : "','";
    return make_error(Errc::kInvalid, "id \"" + shown_id(id) + "\" holds " + what +
                                          " (ids are joined with ',' into one NAME=value line: no NUL, line break, '=' or ',')");
}

}  // namespace

Result<Machine> read_canary_pool(std::string_view text, const std::string& path, const GrugLimits& limits) {
    auto doc = load_yaml(text, path);
    if (!doc) return doc.error();
    if (!doc->IsMap()) return bad(path, "", "expected a mapping");
    YAML::Node pool = (*doc)["resource_pool"] ? (*doc)["resource_pool"] : *doc;
    std::string where = (*doc)["resource_pool"] ? "resource_pool" : "";
    if (!pool.IsMap()) return bad(path, where, "expected a mapping");
    Worker worker;
    worker.name = "node0";
    auto add_pool = [&](const std::string& name, std::vector<PoolItem> items, const std::string& at) -> Status {
        RQ_TRY(check_pool_name(name));
        for (auto& p : worker.pools)
            if (p.name == name) return bad(path, at, "resource type " + name + " is defined twice");
        Pool p;
        p.name = name;
        p.groups.push_back(std::move(items));
        worker.pools.push_back(std::move(p));
        return ok_status();
    };
    for (auto it = pool.begin(); it != pool.end(); ++it) {
        std::string key = it->first.as<std::string>("");
        std::string at = where.empty() ? key : where + "." + key;
        if (key == "additional_properties") continue;
        if (key == "resources") {
            if (!it->second.IsMap()) return bad(path, at, "must map each type to a list of {id, slots}");
            for (auto r = it->second.begin(); r != it->second.end(); ++r) {
                std::string type = r->first.as<std::string>("");
                std::string rat = at + "." + type;
                if (!r->second.IsSequence()) return bad(path, rat, "must be a list of {id, slots}");
                std::vector<PoolItem> items;
                std::set<std::string> ids;
                for (size_t i = 0; i < r->second.size(); ++i) {
                    const YAML::Node inst = r->second[i];
                    std::string iat = rat + "[" + std::to_string(i) + "]";
                    if (!inst.IsMap() || !inst["id"] || !inst["id"].IsScalar() || inst["id"].Scalar().empty())
                        return bad(path, iat, "an instance needs a string `id`");
                    PoolItem item{inst["id"].Scalar(), 1};
                    if (Status id = check_canary_id(item.id); !id) return bad(path, iat + ".id", id.message());
                    if (inst["slots"] && (!yaml_amount(inst["slots"], item.slots) || item.slots < 1))
                        return bad(path, iat + ".slots", "must be a positive integer up to 2^63-1");
                    if (!ids.insert(item.id).second) return bad(path, iat, "id " + item.id + " appears twice");
                    items.push_back(std::move(item));
                }
                if (Status s = add_pool(type, std::move(items), rat); !s) return bad(path, rat, s.message());
            }
            continue;
        }
        // Shorthand: `cpus: 32` is 32 instances "0".."31" of one slot.
        int64_t n = 0;
        if (!yaml_amount(it->second, n) || n > (int64_t(1) << 24))
            return bad(path, at, "expected a count (0 to 2^24) or `resources:`");
        if (Status fits = check_size(1 + worker_vertices(worker) + double(n), limits); !fits)
            return bad(path, at, fits.message());
        std::vector<PoolItem> items;
        for (int64_t i = 0; i < n; ++i) items.push_back({std::to_string(i), 1});
        if (Status s = add_pool(key, std::move(items), at); !s) return bad(path, at, s.message());
    }
    Machine m;
    m.workers.push_back(std::move(worker));
    return m;
}

namespace {

// CTest's ids: ^[a-z0-9_]+$ (CMake Source/CTest/cmCTestResourceSpec.cxx:22).
bool ctest_id(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
            return false;
    return true;
}

}  // namespace

Result<Machine> read_ctest_spec(std::string_view text, const std::string& path, const GrugLimits& limits) {
    nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded()) return bad(path, "", "not valid JSON");
    if (!doc.is_object()) return bad(path, "", "the root must be a JSON object");
    if (!doc.contains("version") || !doc["version"].is_object()) return bad(path, "version", "missing or not an object");
    auto& v = doc["version"];
    if (!v.contains("major") || !v["major"].is_number_integer() || !v.contains("minor") ||
        !v["minor"].is_number_integer())
        return bad(path, "version", "needs integer `major` and `minor`");
    if (v["major"].get<int64_t>() != 1 || v["minor"].get<int64_t>() != 0)
        return bad(path, "version", "only version 1.0 is supported");
    if (!doc.contains("local") || !doc["local"].is_array()) return bad(path, "local", "missing or not an array");
    // An empty list is a machine with no resources; more than one set is
    // refused (CMake Source/CTest/cmCTestResourceSpec.cxx:104-112).
    if (doc["local"].size() > 1) return bad(path, "local", "must hold at most one resource set");
    Machine m;
    Worker worker;
    worker.name = "local";
    static const nlohmann::json no_resources = nlohmann::json::object();
    auto& set = doc["local"].empty() ? no_resources : doc["local"][0];
    if (!set.is_object()) return bad(path, "local[0]", "must be an object");
    for (auto& [type, list] : set.items()) {
        std::string at = "local[0]." + type;
        // Keys that are not type names are skipped, as CTest's MapFilter
        // skips them (CMake Source/CTest/cmCTestResourceSpec.cxx:83-89);
        // `_` and `_x` are names.
        if (!is_ctest_type_name(type)) {
            m.warnings.push_back(path + ": " + at + ": warning: ignored, not a CTest resource type name ([a-z_][a-z0-9_]*)");
            continue;
        }
        if (!list.is_array()) return bad(path, at, "must be an array of {id, slots}");
        Pool pool;
        pool.name = type;
        pool.groups.emplace_back();
        std::set<std::string> ids;
        for (size_t i = 0; i < list.size(); ++i) {
            auto& inst = list[i];
            std::string iat = at + "[" + std::to_string(i) + "]";
            if (!inst.is_object() || !inst.contains("id") || !inst["id"].is_string())
                return bad(path, iat, "needs a string `id`");
            PoolItem item{inst["id"].get<std::string>(), 1};
            if (!ctest_id(item.id)) return bad(path, iat + ".id", "'" + item.id + "' must be lowercase letters, digits and '_'");
            if (inst.contains("slots")) {
                auto& s = inst["slots"];
                if (!s.is_number_unsigned() || s.get<uint64_t>() > uint64_t(kMaxAmount))
                    return bad(path, iat + ".slots", "must be a non-negative integer");
                item.slots = s.get<int64_t>();
            }
            if (!ids.insert(item.id).second) return bad(path, iat, "id " + item.id + " appears twice");
            if (item.slots > 0) pool.groups.back().push_back(std::move(item));
        }
        worker.pools.push_back(std::move(pool));
        if (Status fits = check_size(1 + worker_vertices(worker), limits); !fits) return bad(path, at, fits.message());
    }
    m.workers.push_back(std::move(worker));
    return m;
}

}  // namespace rq::pools
