// The rows of the state file as values (state/rows.cc writes them,
// state/rows_restore.cc reads them back): one struct per table, each with
// the digest its row carries, and the encodings of their text columns.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "state/digest.h"
#include "state/job_r.h"
#include "state/sqlite_db.h"
#include "utilities/result.h"

namespace rq::state::rows_detail {

inline constexpr int64_t kNoJob = -1;  // spans no job record names (kept whole with the vertex)

// One row of each table; digest() is the row's checksum.
struct VertexRow {
    int64_t v = 0, up = 1, record = 0, own_next = 1, x_next = 1;
    std::string properties, weights, labels;
    uint64_t digest() const {
        Digest d;
        d.add("vertex");
        for (int64_t n : {v, up, record, own_next, x_next}) d.add_number(static_cast<uint64_t>(n));
        return d.add(properties).add(weights).add(labels).value();
    }
};
struct SubRow {
    int64_t v, slot, next_id;
    std::string planner_next;  // each per-type planner's next span id
    uint64_t digest() const {
        return Digest().add("subtree").add_number(v).add_number(slot).add_number(next_id).add(planner_next).value();
    }
};
struct JobRow {
    int64_t v, job;
    std::string kind;  // alloc, resv, x, tag, or s<slot>
    int64_t span;
    uint64_t digest() const { return Digest().add("job").add_number(v).add_number(job).add(kind).add_number(span).value(); }
};
struct SpanRow {
    int64_t v, job;
    std::string planner;  // own, x, or s<slot>.<type index>
    int64_t id, start, end, amount;
    uint64_t digest() const {
        return Digest().add("span").add_number(v).add_number(job).add(planner).add_number(id).add_number(start)
            .add_number(end).add_number(amount).value();
    }
};
struct MultiRow {
    int64_t v, job, slot, id;
    std::string per_type;  // span ids, space separated
    uint64_t digest() const {
        return Digest().add("multi").add_number(v).add_number(job).add_number(slot).add_number(id).add(per_type).value();
    }
};

// Rows of one vertex (or of some jobs at it).
struct Rows {
    std::optional<VertexRow> vertex;
    std::vector<SubRow> subs;
    std::vector<JobRow> jobs;
    std::vector<SpanRow> spans;
    std::vector<MultiRow> multis;
};

// Length-prefixed key/value pairs: any bytes survive.
template <class Map>
std::string encode_pairs(const Map& m) {
    std::string out;
    for (auto& [k, v] : m) out += std::to_string(k.size()) + ":" + k + std::to_string(v.size()) + ":" + v;
    return out;
}

inline bool decode_pairs(const std::string& text, std::vector<std::pair<std::string, std::string>>& out) {
    size_t at = 0;
    auto field = [&](std::string& f) {
        size_t colon = text.find(':', at);
        if (colon == std::string::npos || colon == at || colon - at > 9) return false;
        size_t n = std::strtoull(text.substr(at, colon - at).c_str(), nullptr, 10);
        if (n > text.size() - colon - 1) return false;
        f = text.substr(colon + 1, n);
        at = colon + 1 + n;
        return true;
    };
    while (at < text.size()) {
        std::string k, v;
        if (!field(k) || !field(v)) return false;
        out.emplace_back(std::move(k), std::move(v));
    }
    return true;
}

inline std::vector<int64_t> numbers(const std::string& text) {
    std::vector<int64_t> out;
    std::istringstream in(text);
    for (int64_t n; in >> n;) out.push_back(n);
    return out;
}


inline uint64_t job_digest(int64_t id, const std::string& state, int64_t at, const std::string& jobspec, double overhead,
                           const JobR& r) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", overhead);
    return Digest().add_number(static_cast<uint64_t>(id)).add(state).add_number(static_cast<uint64_t>(at))
        .add(jobspec).add(buf).add(r.r).add_number(static_cast<uint64_t>(r.start))
        .add_number(static_cast<uint64_t>(r.end)).value();
}


inline Error corrupt_rows(const Database& db, const std::string& what) {
    return make_error(Errc::kInvalid, db.path() + ": corrupt resource-query state file: " + what);
}

}  // namespace rq::state::rows_detail
