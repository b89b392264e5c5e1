// Building the graph from its rows (schema in state/graph_rows.h): the
// interners, the vertices in id order, the edges in id order (dead ids
// restored dead), the paths, the by-path index, the roots, and last the
// removed vertices detached again.
#include <cstring>
#include <unordered_map>
#include <vector>

#include "state/graph_row_types.h"
#include "state/graph_rows.h"
#include "state/row_types.h"

namespace rq::state {

namespace {

using namespace graph_detail;

Error bad_row(const Database& db, const std::string& row, const std::string& what) {
    return rows_detail::corrupt_rows(db, row + ": " + what);
}

Opt opt_integer(const Statement& q, int col) {
    if (q.type(col) == SQLITE_NULL) return std::nullopt;
    return q.integer(col);
}
OptText opt_text(const Statement& q, int col) {
    if (q.type(col) == SQLITE_NULL) return std::nullopt;
    return q.text(col);
}

// What the later passes need of each vertex row.
struct Shape {
    std::vector<uint32_t> parent;  // kNoVertex: none
    std::vector<SubsystemId> subsystem;
    std::vector<uint8_t> removed;
    std::unordered_map<VertexId, std::string> paths;    // explicit paths column
    std::unordered_map<VertexId, std::string> indexed;  // explicit indexed column
};

bool parse_ids(const std::string& text, size_t limit, std::vector<int64_t>& out) {
    out = rows_detail::numbers(text);
    for (int64_t n : out)
        if (n < 0 || static_cast<size_t>(n) >= limit) return false;
    // numbers() stops at the first non-number: everything must have parsed
    size_t digits = 0;
    for (char c : text) digits += c != ' ';
    size_t expected = 0;
    for (int64_t n : out) expected += std::to_string(n).size();
    return digits == expected;
}

class Builder {
public:
    Builder(Database& db, uint64_t& sum) : db_(db), sum_(sum), g_(std::make_unique<ResourceGraph>()) {}

    Result<std::unique_ptr<ResourceGraph>> build() {
        RQ_TRY(interners());
        RQ_TRY(counts());
        RQ_TRY(vertices());
        RQ_TRY(edges());
        RQ_TRY(paths());
        RQ_TRY(index());
        for (auto [s, root] : roots_) g_->set_root(s, root);
        std::vector<VertexId> removed;
        for (VertexId v = 0; v < n_; ++v)
            if (shape_.removed[v]) removed.push_back(v);
        if (!removed.empty()) g_->detach_vertices(removed);
        g_->finish_load();
        g_->types().freeze();
        return std::move(g_);
    }

private:
    template <class Check>
    Status each(const char* sql, Check&& check) {
        auto q = db_.prepare(sql);
        if (!q) return q.error();
        Status status;
        while (q->step(status)) RQ_TRY(check(*q));
        return status;
    }
    Status digest_of(uint64_t computed, int64_t stored, const std::string& row) {
        if (computed != static_cast<uint64_t>(stored)) return bad_row(db_, row, "does not match its checksum");
        sum_ += computed;
        return ok_status();
    }

    Status interners() {
        RQ_TRY(each("SELECT id, name, digest FROM graph_type ORDER BY id", [&](Statement& q) -> Status {
            int64_t id = q.integer(0);
            std::string name = q.text(1), row = "graph_type row " + std::to_string(id);
            RQ_TRY(digest_of(name_digest("graph_type", id, name, "", 0), q.integer(2), row));
            if (g_->types().intern_always(name) != id) return bad_row(db_, row, "type ids out of order");
            return ok_status();
        }));
        RQ_TRY(each("SELECT id, name, root, digest FROM graph_subsystem ORDER BY id", [&](Statement& q) -> Status {
            int64_t id = q.integer(0), root = q.type(2) == SQLITE_NULL ? -1 : q.integer(2);
            std::string name = q.text(1), row = "graph_subsystem row " + std::to_string(id);
            RQ_TRY(digest_of(name_digest("graph_subsystem", id, name, "", root), q.integer(3), row));
            if (g_->subsystems().intern_always(name) != id) return bad_row(db_, row, "subsystem ids out of order");
            if (root >= 0) roots_.emplace_back(static_cast<SubsystemId>(id), root);
            return ok_status();
        }));
        return each("SELECT id, basename, unit, digest FROM graph_kind ORDER BY id", [&](Statement& q) -> Status {
            int64_t id = q.integer(0);
            std::string basename = q.text(1), unit = q.text(2), row = "graph_kind row " + std::to_string(id);
            RQ_TRY(digest_of(name_digest("graph_kind", id, basename, unit, 0), q.integer(3), row));
            if (id != static_cast<int64_t>(kinds_.size())) return bad_row(db_, row, "kind ids out of order");
            kinds_.emplace_back(std::move(basename), std::move(unit));
            return ok_status();
        });
    }

    Status counts() {
        bool found = false;
        RQ_TRY(each("SELECT vertices, edges, digest FROM graph_count", [&](Statement& q) -> Status {
            int64_t n = q.integer(0), m = q.integer(1);
            RQ_TRY(digest_of(name_digest("graph_count", 0, "", "", n) + name_digest("graph_count", 1, "", "", m),
                             q.integer(2), "graph_count row"));
            if (n < 0 || m < 0 || n >= int64_t{UINT32_MAX} || m >= int64_t{UINT32_MAX})
                return bad_row(db_, "graph_count row", "counts out of range");
            n_ = static_cast<size_t>(n), m_ = static_cast<size_t>(m);
            found = true;
            return ok_status();
        }));
        if (!found) return bad_row(db_, "graph_count", "no row");
        for (auto [s, root] : roots_)
            if (static_cast<size_t>(root) >= n_)
                return bad_row(db_, "graph_subsystem row " + std::to_string(s), "root out of range");
        shape_.parent.assign(n_, kNoVertex);
        shape_.subsystem.assign(n_, 0);
        shape_.removed.assign(n_, 0);
        edge_src_.assign(m_, kNoVertex);
        edge_dst_.assign(m_, kNoVertex);
        edge_sub_.assign(m_, 0);
        g_->reserve(n_, m_);
        return ok_status();
    }

    Status vertices() {
        size_t next = 0;
        std::string name;
        RQ_TRY(each("SELECT v, type, kind, id, rank, size, parent, edge, subsystem, name, uniq_id, removed, paths,"
                    " indexed, digest, count, id_step, rank_step FROM graph_vertex ORDER BY v",
                    [&](Statement& q) -> Status {
                        VertexRow r;
                        r.v = q.integer(0), r.type = q.integer(1), r.kind = q.integer(2), r.id = q.integer(3);
                        r.rank = q.integer(4), r.size = q.integer(5);
                        r.parent = opt_integer(q, 6), r.edge = opt_integer(q, 7), r.subsystem = opt_integer(q, 8);
                        r.name = opt_text(q, 9), r.uniq_id = opt_integer(q, 10), r.removed = opt_integer(q, 11);
                        r.paths = opt_text(q, 12), r.indexed = opt_text(q, 13);
                        r.count = opt_integer(q, 15), r.id_step = opt_integer(q, 16), r.rank_step = opt_integer(q, 17);
                        auto row = [&] { return "graph_vertex row " + std::to_string(r.v); };
                        if (r.digest() != static_cast<uint64_t>(q.integer(14)))
                            return bad_row(db_, row(), "does not match its checksum");
                        sum_ += r.digest();
                        if (r.v != static_cast<int64_t>(next)) return bad_row(db_, row(), "vertex ids not consecutive");
                        if (!r.count) return vertex(r, row, name, next++);
                        // A run: every vertex alike but its id and rank.
                        VertexRow one = r;
                        one.count = one.id_step = one.rank_step = std::nullopt;
                        if (*r.count < 2 || *r.count > kMaxRun || !one.plain() ||
                            static_cast<size_t>(*r.count) > n_ - next)
                            return bad_row(db_, row(), "a bad run of vertices");
                        for (int64_t k = 0; k < *r.count; ++k) {
                            one.v = r.v + k;
                            one.id = r.id + k * r.id_step.value_or(0);
                            one.rank = r.rank + k * r.rank_step.value_or(0);
                            RQ_TRY(vertex(one, row, name, next++));
                        }
                        return ok_status();
                    }));
        if (next != n_) return bad_row(db_, "graph_vertex", std::to_string(next) + " rows for " + std::to_string(n_) + " vertices");
        return ok_status();
    }

    template <class Row>
    Status vertex(const VertexRow& r, const Row& row, std::string& name, size_t v) {
        if (v >= n_) return bad_row(db_, row(), "more vertices than graph_count says");
        auto in_range = [](const Opt& o, size_t limit) { return !o || (*o >= 0 && static_cast<size_t>(*o) < limit); };
        if (r.type < 0 || static_cast<size_t>(r.type) >= g_->types().size()) return bad_row(db_, row(), "no such type");
        if (r.kind < 0 || static_cast<size_t>(r.kind) >= kinds_.size()) return bad_row(db_, row(), "no such kind");
        if (!in_range(r.parent, n_) || (r.parent && static_cast<size_t>(*r.parent) == v))
            return bad_row(db_, row(), "parent out of range");
        if (!in_range(r.subsystem, g_->subsystems().size())) return bad_row(db_, row(), "no such subsystem");
        if (r.removed && *r.removed != 1) return bad_row(db_, row(), "removed is neither NULL nor 1");
        if (r.uniq_id && *r.uniq_id < 0) return bad_row(db_, row(), "negative uniq_id");
        int64_t e = r.edge ? *r.edge : static_cast<int64_t>(v) - 1;
        if (r.parent) {
            if (e < 0 || static_cast<size_t>(e) >= m_) return bad_row(db_, row(), "edge out of range");
            if (edge_src_[static_cast<size_t>(e)] != kNoVertex) return bad_row(db_, row(), "edge named twice");
            edge_src_[static_cast<size_t>(e)] = static_cast<VertexId>(*r.parent);
            edge_dst_[static_cast<size_t>(e)] = static_cast<VertexId>(v);
            edge_sub_[static_cast<size_t>(e)] = static_cast<SubsystemId>(r.subsystem.value_or(0));
            shape_.parent[v] = static_cast<VertexId>(*r.parent);
        }
        if (r.removed && r.parent) return bad_row(db_, row(), "a removed vertex with an edge");
        shape_.subsystem[v] = static_cast<SubsystemId>(r.subsystem.value_or(0));
        shape_.removed[v] = r.removed ? 1 : 0;
        if (r.paths) shape_.paths[static_cast<VertexId>(v)] = *r.paths;
        if (r.indexed) shape_.indexed[static_cast<VertexId>(v)] = *r.indexed;
        const auto& kind = kinds_[static_cast<size_t>(r.kind)];
        if (r.name) {
            name = *r.name;
        } else {
            name = kind.first;
            if (r.id != -1) name += std::to_string(r.id);
        }
        VertexSpec spec;
        spec.type = static_cast<TypeId>(r.type);
        spec.basename = kind.first;
        spec.unit = kind.second;
        spec.name = name;
        spec.id = r.id;
        spec.uniq_id = r.uniq_id ? *r.uniq_id : -1;
        spec.rank = r.rank;
        spec.size = r.size;
        g_->add_vertex(spec);
        return ok_status();
    }

    Status edges() {
        RQ_TRY(each("SELECT e, src, dst, subsystem, digest FROM graph_edge ORDER BY e", [&](Statement& q) -> Status {
            EdgeRow r{q.integer(0), q.integer(1), q.integer(2), q.integer(3)};
            std::string row = "graph_edge row " + std::to_string(r.e);
            RQ_TRY(digest_of(r.digest(), q.integer(4), row));
            if (r.e < 0 || static_cast<size_t>(r.e) >= m_) return bad_row(db_, row, "edge id out of range");
            if (r.src < 0 || r.dst < 0 || static_cast<size_t>(r.src) >= n_ || static_cast<size_t>(r.dst) >= n_)
                return bad_row(db_, row, "endpoint out of range");
            if (r.subsystem < 0 || static_cast<size_t>(r.subsystem) >= g_->subsystems().size())
                return bad_row(db_, row, "no such subsystem");
            if (shape_.removed[static_cast<size_t>(r.src)] || shape_.removed[static_cast<size_t>(r.dst)])
                return bad_row(db_, row, "an edge of a removed vertex");
            auto e = static_cast<size_t>(r.e);
            if (edge_src_[e] != kNoVertex) return bad_row(db_, row, "edge named twice");
            edge_src_[e] = static_cast<VertexId>(r.src);
            edge_dst_[e] = static_cast<VertexId>(r.dst);
            edge_sub_[e] = static_cast<SubsystemId>(r.subsystem);
            return ok_status();
        }));
        for (size_t e = 0; e < m_; ++e) {
            if (edge_src_[e] == kNoVertex)
                g_->add_dead_edge();
            else
                g_->add_edge(edge_src_[e], edge_dst_[e], edge_sub_[e]);
        }
        return ok_status();
    }

    Status paths() {
        std::vector<std::pair<std::string, std::string>> pairs;
        for (VertexId v = 0; v < n_; ++v) {
            if (shape_.removed[v]) continue;
            auto explicit_paths = shape_.paths.find(v);
            if (explicit_paths == shape_.paths.end()) {
                VertexId parent = shape_.parent[v];
                if (parent != kNoVertex && parent > v)
                    return bad_row(db_, "graph_vertex row " + std::to_string(v), "a derived path below a later vertex");
                g_->set_path_below(v, shape_.subsystem[v], parent, shape_.subsystem[v]);
                continue;
            }
            pairs.clear();
            if (!rows_detail::decode_pairs(explicit_paths->second, pairs))
                return bad_row(db_, "graph_vertex row " + std::to_string(v), "bad paths");
            for (auto& [sub, text] : pairs) {
                std::vector<int64_t> id;
                if (!parse_ids(sub, g_->subsystems().size(), id) || id.size() != 1)
                    return bad_row(db_, "graph_vertex row " + std::to_string(v), "a path of no subsystem");
                g_->set_path(v, static_cast<SubsystemId>(id[0]), text);
            }
        }
        return ok_status();
    }

    // The subsystems of v's own by-path keys (the indexed column).
    Status own_keys(VertexId v, std::vector<std::pair<SubsystemId, std::string>>& out) {
        out.clear();
        std::vector<std::pair<SubsystemId, std::string>> paths;
        g_->for_each_path(v, [&](SubsystemId s, std::string_view text) { paths.emplace_back(s, std::string(text)); });
        auto explicit_ids = shape_.indexed.find(v);
        if (explicit_ids == shape_.indexed.end()) {
            for (size_t i = 0; i < paths.size(); ++i) {
                bool seen = paths[i].second.empty();
                for (size_t j = 0; j < i && !seen; ++j) seen = paths[j].second == paths[i].second;
                if (!seen) out.push_back(paths[i]);
            }
            return ok_status();
        }
        std::vector<int64_t> ids;
        if (!parse_ids(explicit_ids->second, g_->subsystems().size(), ids))
            return bad_row(db_, "graph_vertex row " + std::to_string(v), "bad indexed column");
        for (int64_t id : ids) {
            bool found = false;
            for (auto& p : paths)
                if (p.first == id && !found) out.push_back(p), found = true;
            if (!found) return bad_row(db_, "graph_vertex row " + std::to_string(v), "an indexed path it does not have");
        }
        return ok_status();
    }

    Status index() {
        std::vector<std::pair<SubsystemId, std::string>> own;
        for (VertexId v = 0; v < n_; ++v) {
            if (shape_.removed[v]) continue;
            if (!shape_.indexed.count(v) && !shape_.paths.count(v)) {
                g_->index_path(v, g_->path(v, shape_.subsystem[v]));  // the usual case: one path
                continue;
            }
            RQ_TRY(own_keys(v, own));
            for (auto& [s, text] : own) g_->index_path(v, text);
        }
        return each("SELECT key, vertices, digest FROM graph_index", [&](Statement& q) -> Status {
            IndexRow r{q.text(0), q.text(1)};
            std::string row = "graph_index row '" + r.key + "'";
            RQ_TRY(digest_of(r.digest(), q.integer(2), row));
            std::vector<int64_t> vs;
            if (!parse_ids(r.vertices, n_, vs) || vs.empty()) return bad_row(db_, row, "bad vertex list");
            // A removed vertex may stay under a key that is no longer its
            // path (GRUG re-associations): detaching it erased only its paths.
            for (int64_t v : vs) g_->index_path(static_cast<VertexId>(v), r.key);
            return ok_status();
        });
    }

    Database& db_;
    uint64_t& sum_;
    std::unique_ptr<ResourceGraph> g_;
    size_t n_ = 0, m_ = 0;
    std::vector<std::pair<SubsystemId, int64_t>> roots_;
    std::vector<std::pair<std::string, std::string>> kinds_;
    Shape shape_;
    std::vector<VertexId> edge_src_, edge_dst_;
    std::vector<SubsystemId> edge_sub_;
};

}  // namespace

Result<std::unique_ptr<ResourceGraph>> read_graph_rows(Database& db, uint64_t& sum) { return Builder(db, sum).build(); }

}  // namespace rq::state
