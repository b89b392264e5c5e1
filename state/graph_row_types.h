// The graph rows as values (state/graph_rows.cc writes them,
// state/graph_rows_restore.cc reads them back), each with its digest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "state/digest.h"

namespace rq::state::graph_detail {

using Opt = std::optional<int64_t>;
using OptText = std::optional<std::string>;

inline void add_opt(Digest& d, const Opt& o) {
    d.add_number(o ? 1 : 0);
    if (o) d.add_number(static_cast<uint64_t>(*o));
}
inline void add_opt(Digest& d, const OptText& o) {
    d.add_number(o ? 1 : 0);
    if (o) d.add(*o);
}

struct VertexRow {
    int64_t v = 0, type = 0, kind = 0, id = -1, rank = -1, size = 1;
    Opt count, id_step, rank_step;  // a run of vertices (NULL: 1, 0, 0)
    Opt parent, edge, subsystem;
    OptText name;
    Opt uniq_id, removed;
    OptText paths, indexed;
    uint64_t digest() const {
        Digest d;
        d.add("graph_vertex");
        for (int64_t n : {v, type, kind, id, rank, size}) d.add_number(static_cast<uint64_t>(n));
        for (const Opt* o : {&count, &id_step, &rank_step, &parent, &edge, &subsystem}) add_opt(d, *o);
        add_opt(d, name);
        add_opt(d, uniq_id);
        add_opt(d, removed);
        add_opt(d, paths);
        add_opt(d, indexed);
        return d.value();
    }
    // A row every column of which a run can repeat.
    bool plain() const { return !count && !edge && !name && !uniq_id && !removed && !paths && !indexed; }
};

// The longest run one row holds: rewriting a run after a change to one of
// its vertices stays cheap.
inline constexpr int64_t kMaxRun = 1024;

struct EdgeRow {
    int64_t e, src, dst, subsystem;
    uint64_t digest() const {
        return Digest().add("graph_edge").add_number(e).add_number(src).add_number(dst).add_number(subsystem).value();
    }
};

struct IndexRow {
    std::string key, vertices;
    uint64_t digest() const { return Digest().add("graph_index").add(key).add(vertices).value(); }
};

// graph_type, graph_subsystem (root: -1 for none), graph_kind, graph_count.
inline uint64_t name_digest(const char* table, int64_t id, const std::string& a, const std::string& b, int64_t n) {
    return Digest().add(table).add_number(static_cast<uint64_t>(id)).add(a).add(b).add_number(static_cast<uint64_t>(n)).value();
}

}  // namespace rq::state::graph_detail
