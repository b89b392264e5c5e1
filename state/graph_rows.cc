// Writing the graph rows (schema in state/graph_rows.h): whole, or the
// rows a change log names.
#include "state/graph_rows.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "state/graph_row_types.h"
#include "state/row_types.h"

namespace rq::state {

const char* const kGraphRowSchema = R"(
CREATE TABLE IF NOT EXISTS graph_type(id INTEGER PRIMARY KEY, name TEXT NOT NULL, digest INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS graph_subsystem(id INTEGER PRIMARY KEY, name TEXT NOT NULL, root INTEGER,
                                           digest INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS graph_kind(id INTEGER PRIMARY KEY, basename TEXT NOT NULL, unit TEXT NOT NULL,
                                      digest INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS graph_count(id INTEGER PRIMARY KEY CHECK (id = 0), vertices INTEGER NOT NULL,
                                       edges INTEGER NOT NULL, digest INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS graph_vertex(v INTEGER PRIMARY KEY, count INTEGER, type INTEGER NOT NULL,
                                        kind INTEGER NOT NULL, id INTEGER NOT NULL, id_step INTEGER,
                                        rank INTEGER NOT NULL, rank_step INTEGER, size INTEGER NOT NULL,
                                        parent INTEGER, edge INTEGER, subsystem INTEGER, name TEXT,
                                        uniq_id INTEGER, removed INTEGER, paths BLOB, indexed TEXT,
                                        digest INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS graph_edge(e INTEGER PRIMARY KEY, src INTEGER NOT NULL, dst INTEGER NOT NULL,
                                      subsystem INTEGER NOT NULL, digest INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS graph_index(key TEXT PRIMARY KEY, vertices TEXT NOT NULL,
                                       digest INTEGER NOT NULL) WITHOUT ROWID;
)";

namespace {

using namespace graph_detail;

const char* const kGraphTables[] = {"graph_type", "graph_subsystem", "graph_kind", "graph_count",
                                    "graph_vertex", "graph_edge", "graph_index"};
const char* const kSmallTables[] = {"graph_type", "graph_subsystem", "graph_kind", "graph_count"};

int64_t d(uint64_t digest) { return static_cast<int64_t>(digest); }

EdgeId first_in_edge(const ResourceGraph& g, VertexId v) {
    auto in = g.in(v);
    return in.begin() == in.end() ? kNoEdge : *in.begin();
}

// v's paths in order: (subsystem, text).
std::vector<std::pair<SubsystemId, std::string>> paths_of(const ResourceGraph& g, VertexId v) {
    std::vector<std::pair<SubsystemId, std::string>> out;
    g.for_each_path(v, [&](SubsystemId s, std::string_view text) { out.emplace_back(s, std::string(text)); });
    return out;
}

// The subsystems of the first path of each distinct text (non-empty
// only: the default of the indexed column).
std::vector<SubsystemId> first_of_each_text(const std::vector<std::pair<SubsystemId, std::string>>& paths,
                                            bool with_empty) {
    std::vector<SubsystemId> out;
    for (size_t i = 0; i < paths.size(); ++i) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; ++j) seen = paths[j].second == paths[i].second;
        if (!seen && (with_empty || !paths[i].second.empty())) out.push_back(paths[i].first);
    }
    return out;
}

std::string join_ids(const std::vector<SubsystemId>& ids) {
    std::string out;
    for (SubsystemId s : ids) out += (out.empty() ? "" : " ") + std::to_string(s);
    return out;
}

// The row of v; `own` lists the subsystems of v's paths that are by-path
// keys holding only v (first path of each text).
VertexRow vertex_row(const ResourceGraph& g, VertexId v, const std::vector<SubsystemId>& own) {
    VertexRow r;
    r.v = v;
    r.type = g.type(v);
    r.kind = g.kind(v);
    r.id = g.id(v);
    r.rank = g.rank(v);
    r.size = g.size(v);
    std::string_view basename = g.basename(v), name = g.name(v);
    bool default_name = name.size() >= basename.size() && name.substr(0, basename.size()) == basename &&
                        name.substr(basename.size()) == (r.id == -1 ? std::string() : std::to_string(r.id));
    if (!default_name) r.name = std::string(name);
    if (g.uniq_id(v) != static_cast<int64_t>(v)) r.uniq_id = g.uniq_id(v);
    if (g.is_removed(v)) r.removed = 1;
    EdgeId e = first_in_edge(g, v);
    VertexId parent = kNoVertex;
    SubsystemId s = 0;
    if (e != kNoEdge) {
        parent = g.source(e);
        s = g.subsystem(e);
        r.parent = parent;
        if (static_cast<int64_t>(e) != static_cast<int64_t>(v) - 1) r.edge = e;
    } else {
        g.for_each_path(v, [&](SubsystemId first, std::string_view) {
            if (s == 0) s = first;
        });
    }
    if (s != 0) r.subsystem = s;
    bool default_paths = !g.is_removed(v) && (parent == kNoVertex || parent < v) && g.path_is_below(v, s, parent);
    std::vector<std::pair<SubsystemId, std::string>> paths;
    if (!default_paths) {
        paths = paths_of(g, v);
        std::vector<std::pair<std::string, std::string>> pairs;
        for (auto& [sub, text] : paths) pairs.emplace_back(std::to_string(sub), text);
        r.paths = rows_detail::encode_pairs(pairs);
    }
    if (g.is_removed(v)) return r;
    if (default_paths) {
        if (!(own.size() == 1 && own[0] == s)) r.indexed = join_ids(own);
    } else if (own != first_of_each_text(paths, false)) {
        r.indexed = join_ids(own);
    }
    return r;
}

// v's own keys, looked up one by one (a few vertices).
std::vector<SubsystemId> own_keys(const ResourceGraph& g, VertexId v) {
    auto paths = paths_of(g, v);
    std::vector<SubsystemId> out;
    for (size_t i = 0; i < paths.size(); ++i) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; ++j) seen = paths[j].second == paths[i].second;
        if (seen) continue;
        auto at = g.at_path(paths[i].second);
        if (at.size() == 1 && at[0] == v) out.push_back(paths[i].first);
    }
    return out;
}

// Whether key `text` is its only vertex's own path.
bool own_key(const ResourceGraph& g, std::string_view text, const std::vector<VertexId>& at) {
    if (at.size() != 1) return false;
    bool found = false;
    g.for_each_path(at[0], [&](SubsystemId, std::string_view p) { found = found || p == text; });
    return found;
}

std::string join_vertices(const std::vector<VertexId>& vs) {
    std::string out;
    for (VertexId v : vs) out += (out.empty() ? "" : " ") + std::to_string(v);
    return out;
}

struct Writer {
    Database& db;
    Statement *vertex = nullptr, *edge = nullptr, *index = nullptr;
    Status prepare() {
        return db.cached_each(
            {{&vertex, "INSERT INTO graph_vertex VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,"
                       " ?15, ?16, ?17, ?18)"},
             {&edge, "INSERT INTO graph_edge VALUES (?1, ?2, ?3, ?4, ?5)"},
             {&index, "INSERT INTO graph_index VALUES (?1, ?2, ?3)"}});
    }
    Result<uint64_t> put(const VertexRow& r) {
        Statement& q = *vertex;
        q.bind(1, r.v).bind(3, r.type).bind(4, r.kind).bind(5, r.id).bind(7, r.rank).bind(9, r.size);
        if (r.count) q.bind(2, *r.count);
        if (r.id_step) q.bind(6, *r.id_step);
        if (r.rank_step) q.bind(8, *r.rank_step);
        if (r.parent) q.bind(10, *r.parent);
        if (r.edge) q.bind(11, *r.edge);
        if (r.subsystem) q.bind(12, *r.subsystem);
        if (r.name) q.bind(13, *r.name);
        if (r.uniq_id) q.bind(14, *r.uniq_id);
        if (r.removed) q.bind(15, *r.removed);
        if (r.paths) q.bind_blob(16, *r.paths);
        if (r.indexed) q.bind(17, *r.indexed);
        uint64_t digest = r.digest();
        RQ_TRY(q.bind(18, d(digest)).run());
        return digest;
    }
    Result<uint64_t> put(const EdgeRow& r) {
        uint64_t digest = r.digest();
        RQ_TRY(edge->bind(1, r.e).bind(2, r.src).bind(3, r.dst).bind(4, r.subsystem).bind(5, d(digest)).run());
        return digest;
    }
    Result<uint64_t> put(const IndexRow& r) {
        uint64_t digest = r.digest();
        RQ_TRY(index->bind(1, r.key).bind(2, r.vertices).bind(3, d(digest)).run());
        return digest;
    }
};

// Whether plain row `r` continues the run `run` of `count` vertices.
bool continues(const VertexRow& run, int64_t count, const VertexRow& r) {
    if (!r.plain() || r.type != run.type || r.kind != run.kind || r.size != run.size || r.parent != run.parent ||
        r.subsystem != run.subsystem)
        return false;
    if (count == 1) return true;  // the second vertex sets the steps
    return r.id - run.id == count * run.id_step.value_or(0) && r.rank - run.rank == count * run.rank_step.value_or(0);
}

// Emits the rows of vertices [from, to): runs of plain vertices (same
// type, kind, size, parent; ids and ranks in steps) share one row.
template <class Own>
Result<uint64_t> emit_rows(Writer& w, const ResourceGraph& g, VertexId from, VertexId to, Own&& own) {
    uint64_t sum = 0;
    std::optional<VertexRow> run;
    int64_t count = 0;
    auto flush = [&]() -> Status {
        if (!run) return ok_status();
        if (count > 1) run->count = count;
        auto added = w.put(*run);
        if (!added) return added.error();
        sum += *added;
        run.reset();
        return ok_status();
    };
    for (VertexId u = from; u < to; ++u) {
        VertexRow r = vertex_row(g, u, own(u));
        if (run && count < kMaxRun && continues(*run, count, r)) {
            if (count == 1) {
                if (r.id != run->id) run->id_step = r.id - run->id;
                if (r.rank != run->rank) run->rank_step = r.rank - run->rank;
            }
            ++count;
            continue;
        }
        RQ_TRY(flush());
        if (r.plain()) {
            run = std::move(r);
            count = 1;
            continue;
        }
        auto added = w.put(r);
        if (!added) return added.error();
        sum += *added;
    }
    RQ_TRY(flush());
    return sum;
}

// The small tables (types, subsystems, kinds, counts), written whole.
Result<uint64_t> write_small_tables(Database& db, const ResourceGraph& g) {
    uint64_t sum = 0;
    auto type = db.cached("INSERT INTO graph_type VALUES (?1, ?2, ?3)");
    auto sub = db.cached("INSERT INTO graph_subsystem VALUES (?1, ?2, ?3, ?4)");
    auto kind = db.cached("INSERT INTO graph_kind VALUES (?1, ?2, ?3, ?4)");
    auto count = db.cached("INSERT INTO graph_count VALUES (0, ?1, ?2, ?3)");
    for (auto* st : {&type, &sub, &kind, &count})
        if (!*st) return st->error();
    for (size_t i = 0; i < g.types().size(); ++i) {
        const std::string& name = g.types().name(static_cast<TypeId>(i));
        uint64_t digest = name_digest("graph_type", static_cast<int64_t>(i), name, "", 0);
        RQ_TRY((*type)->bind(1, static_cast<int64_t>(i)).bind(2, name).bind(3, d(digest)).run());
        sum += digest;
    }
    for (size_t i = 0; i < g.subsystems().size(); ++i) {
        auto s = static_cast<SubsystemId>(i);
        const std::string& name = g.subsystems().name(s);
        int64_t root = g.root(s) == kNoVertex ? -1 : static_cast<int64_t>(g.root(s));
        uint64_t digest = name_digest("graph_subsystem", static_cast<int64_t>(i), name, "", root);
        Statement& q = **sub;
        q.bind(1, static_cast<int64_t>(i)).bind(2, name);
        if (root >= 0) q.bind(3, root);
        RQ_TRY(q.bind(4, d(digest)).run());
        sum += digest;
    }
    for (size_t k = 0; k < g.kind_count(); ++k) {
        std::string basename(g.kind_basename(static_cast<uint32_t>(k))), unit(g.kind_unit(static_cast<uint32_t>(k)));
        uint64_t digest = name_digest("graph_kind", static_cast<int64_t>(k), basename, unit, 0);
        RQ_TRY((*kind)->bind(1, static_cast<int64_t>(k)).bind(2, basename).bind(3, unit).bind(4, d(digest)).run());
        sum += digest;
    }
    auto n = static_cast<int64_t>(g.num_vertices()), m = static_cast<int64_t>(g.edge_capacity());
    uint64_t digest = name_digest("graph_count", 0, "", "", n) + name_digest("graph_count", 1, "", "", m);
    RQ_TRY((*count)->bind(1, n).bind(2, m).bind(3, d(digest)).run());
    return sum + digest;
}

// Sum of the digests of the rows `where` selects in `table` (then deleted).
Result<uint64_t> erase(Database& db, const std::string& table, const std::string& where,
                       const std::optional<std::string>& text_key, int64_t key) {
    auto select = db.cached("SELECT digest FROM " + table + where);
    auto drop = db.cached("DELETE FROM " + table + where);
    if (!select) return select.error();
    if (!drop) return drop.error();
    uint64_t sum = 0;
    bool any = false;
    Status status;
    if (!where.empty()) {
        if (text_key) (*select)->bind(1, *text_key);
        else (*select)->bind(1, key);
    }
    while ((*select)->step(status)) sum += static_cast<uint64_t>((*select)->integer(0)), any = true;
    (*select)->reset();
    if (!status) return status.error();
    if (!any) return sum;
    if (!where.empty()) {
        if (text_key) (*drop)->bind(1, *text_key);
        else (*drop)->bind(1, key);
    }
    RQ_TRY((*drop)->run());
    return sum;
}

// The vertex ranges [from, to) of the rows holding `vertices` (a vertex
// no row holds: itself), merged.
Result<std::vector<std::pair<int64_t, int64_t>>> vertex_ranges(Database& db, const std::set<VertexId>& vertices) {
    auto cover = db.cached("SELECT v, coalesce(count, 1) FROM graph_vertex WHERE v <= ?1 ORDER BY v DESC LIMIT 1");
    if (!cover) return cover.error();
    std::vector<std::pair<int64_t, int64_t>> out;
    for (VertexId u : vertices) {
        if (!out.empty() && u < out.back().second) continue;  // in the last range already
        Statement& q = **cover;
        q.bind(1, static_cast<int64_t>(u));
        Status status;
        std::pair<int64_t, int64_t> range{u, static_cast<int64_t>(u) + 1};
        if (q.step(status) && q.integer(0) + q.integer(1) > static_cast<int64_t>(u))
            range = {q.integer(0), q.integer(0) + q.integer(1)};
        q.reset();
        if (!status) return status.error();
        if (!out.empty() && range.first <= out.back().second)
            out.back().second = std::max(out.back().second, range.second);
        else
            out.push_back(range);
    }
    return out;
}

Result<uint64_t> erase_range(Database& db, int64_t from, int64_t to) {
    auto select = db.cached("SELECT digest FROM graph_vertex WHERE v >= ?1 AND v < ?2");
    auto drop = db.cached("DELETE FROM graph_vertex WHERE v >= ?1 AND v < ?2");
    if (!select) return select.error();
    if (!drop) return drop.error();
    uint64_t sum = 0;
    Status status;
    (*select)->bind(1, from).bind(2, to);
    while ((*select)->step(status)) sum += static_cast<uint64_t>((*select)->integer(0));
    (*select)->reset();
    if (!status) return status.error();
    RQ_TRY((*drop)->bind(1, from).bind(2, to).run());
    return sum;
}

}  // namespace

Status clear_graph_rows(Database& db) {
    for (const char* table : kGraphTables) RQ_TRY(db.exec(std::string("DELETE FROM ") + table));
    return ok_status();
}

Result<uint64_t> write_graph_rows(Database& db, const ResourceGraph& g, uint64_t digest) {
    auto small = write_small_tables(db, g);
    if (!small) return small.error();
    digest += *small;
    Writer w{db};
    RQ_TRY(w.prepare());
    const size_t n = g.num_vertices();
    // Own keys from one pass over the index: most vertices have one
    // (own_one), a few more (own_more).
    std::vector<SubsystemId> own_one(n, kNoId);
    std::unordered_map<VertexId, std::vector<SubsystemId>> own_more;
    Status failed;
    g.for_each_path_key([&](const std::vector<VertexId>& vs, SubsystemId own, std::string_view text) {
        if (!failed) return;
        if (own != kNoId) {
            if (own_one[vs[0]] == kNoId)
                own_one[vs[0]] = own;
            else
                own_more[vs[0]].push_back(own);
            return;
        }
        auto added = w.put(IndexRow{std::string(text), join_vertices(vs)});
        if (!added) failed = added.error();
        else digest += *added;
    });
    RQ_TRY(failed);
    std::vector<SubsystemId> own;
    auto added = emit_rows(w, g, 0, static_cast<VertexId>(n), [&](VertexId v) -> const std::vector<SubsystemId>& {
        own.clear();
        if (own_one[v] != kNoId) own.push_back(own_one[v]);
        if (auto more = own_more.find(v); more != own_more.end()) {
            own.insert(own.end(), more->second.begin(), more->second.end());
            // in path (subsystem) order, as own_keys() lists them
            std::sort(own.begin(), own.end());
        }
        return own;
    });
    if (!added) return added.error();
    digest += *added;
    for (EdgeId e = 0; e < g.edge_capacity(); ++e) {
        if (!g.edge_alive(e) || first_in_edge(g, g.target(e)) == e) continue;
        auto edge = w.put(EdgeRow{e, g.source(e), g.target(e), g.subsystem(e)});
        if (!edge) return edge.error();
        digest += *edge;
    }
    return digest;
}

Result<uint64_t> write_graph_changes(Database& db, const ResourceGraph& g, const GraphDirty& dirty, uint64_t digest) {
    if (dirty.empty()) return digest;
    for (const char* table : kSmallTables) {
        auto old = erase(db, table, "", std::nullopt, 0);
        if (!old) return old.error();
        digest -= *old;
    }
    auto small = write_small_tables(db, g);
    if (!small) return small.error();
    digest += *small;
    Writer w{db};
    RQ_TRY(w.prepare());
    std::set<VertexId> vertices = dirty.vertices;
    for (const std::string& key : dirty.keys) {
        auto old = erase(db, "graph_index", " WHERE key = ?1", key, 0);
        if (!old) return old.error();
        digest -= *old;
        auto at = g.at_path(key);
        vertices.insert(at.begin(), at.end());
        if (at.empty() || own_key(g, key, at)) continue;
        auto added = w.put(IndexRow{key, join_vertices(at)});
        if (!added) return added.error();
        digest += *added;
    }
    for (EdgeId e : dirty.edges) {
        auto old = erase(db, "graph_edge", " WHERE e = ?1", std::nullopt, e);
        if (!old) return old.error();
        digest -= *old;
        if (e >= g.edge_capacity()) continue;
        vertices.insert(g.target(e));
        if (!g.edge_alive(e) || first_in_edge(g, g.target(e)) == e) continue;
        auto added = w.put(EdgeRow{e, g.source(e), g.target(e), g.subsystem(e)});
        if (!added) return added.error();
        digest += *added;
    }
    // The rows holding a changed vertex (a run: all of it) are written again.
    auto ranges = vertex_ranges(db, vertices);
    if (!ranges) return ranges.error();
    std::vector<SubsystemId> own;
    for (auto [from, to] : *ranges) {
        auto old = erase_range(db, from, to);
        if (!old) return old.error();
        digest -= *old;
        to = std::min<int64_t>(to, static_cast<int64_t>(g.num_vertices()));
        if (from >= to) continue;
        auto added = emit_rows(w, g, static_cast<VertexId>(from), static_cast<VertexId>(to),
                               [&](VertexId v) -> const std::vector<SubsystemId>& {
                                   own = g.is_removed(v) ? std::vector<SubsystemId>{} : own_keys(g, v);
                                   return own;
                               });
        if (!added) return added.error();
        digest += *added;
    }
    return digest;
}

Result<bool> has_graph_rows(Database& db) {
    auto q = db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'graph_count'");
    if (!q) return q.error();
    Status status;
    bool table = q->step(status) && q->integer(0) > 0;
    if (!status) return status.error();
    if (!table) return false;
    auto rows = db.prepare("SELECT count(*) FROM graph_count");
    if (!rows) return rows.error();
    bool any = rows->step(status) && rows->integer(0) > 0;
    if (!status) return status.error();
    return any;
}

}  // namespace rq::state
