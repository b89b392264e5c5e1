// The state file's rows (schema 3): per vertex, everything a session
// changed since its resource description was loaded — status, properties,
// ordered-child weights of its in-edges, its schedule record (own planner
// and exclusivity checker with every span and the next span id, the
// allocation / reservation / checker span of each job, the job tags, the
// jobspec labels) and its subtree plans (per-type spans, multi-spans, the
// next id, the span of each job) — and the job table. Resuming restores
// them onto the freshly loaded graph instead of replaying the journal.
//
// A vertex's rows are its own row (status, properties, weights, next span
// ids, labels, subtree plans' next ids) and, per job holding something
// there, the job's rows (its tag, its spans, its multi-spans and their
// ids): a match, cancel or update of one job rewrites only that job's rows
// at the vertices it walks, not the root's record of every job.
//
// Every row has a digest column (64-bit FNV-1a of its contents); the
// meta key rows_digest is their sum mod 2^64, so that an incremental save
// updates it in O(changed rows) and a resume recomputes it.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "session/session.h"
#include "state/graph_rows.h"
#include "state/sqlite_db.h"
#include "utilities/result.h"

namespace rq::state {

// Tables of schema 3 beyond the journal's (CREATE TABLE IF NOT EXISTS).
extern const char* const kRowSchema;

// What may have changed since a save: the per-vertex rows of `vertices`
// and the rows of one job at one vertex in `jobs` (all: everything).
struct Dirty {
    bool all = false;
    std::set<VertexId> vertices;
    std::set<std::pair<VertexId, int64_t>> jobs;
    GraphDirty graph;  // graph rows (attach, remove), kept even when `all`
    void merge(const Dirty& o) {
        graph.merge(o.graph);
        all = all || o.all;
        if (all) return;
        vertices.insert(o.vertices.begin(), o.vertices.end());
        jobs.insert(o.jobs.begin(), o.jobs.end());
    }
    void clear() {
        all = false;
        graph.clear();
        vertices.clear();
        jobs.clear();
    }
};

// Whether a journaled command keeps every effect in rows (match,
// multi-match, update, cancel, partial-cancel, set-status, set-property,
// attach, remove, find, allocated, available, and the queue's and pools'
// commands, state/queue_rows.h, unless the queue is JQM's).
bool is_row_command(const std::string& word);

// find, allocated and available: read-only but for the jobspec labels
// they clear on the vertices they walk (output.md §1.3). Journaled, and
// their vertices' rows rewritten, only when they cleared some.
bool changes_labels_only(const std::string& word);

// Watches, while it lives (and `on`), the vertices whose labels the
// session's walks change: a match labels every candidate its walk accepts
// (picked or not, traversal.md §4.1 step 14), find clears labels. Nested
// watches hand theirs to the outer one.
class LabelWatch {
public:
    LabelWatch(Session& s, bool on);
    ~LabelWatch();
    LabelWatch(const LabelWatch&) = delete;
    LabelWatch& operator=(const LabelWatch&) = delete;
    bool changed() const { return !vertices_.empty(); }
    // Their vertex rows are to be rewritten.
    void add_to(Dirty& out) const { out.vertices.insert(vertices_.begin(), vertices_.end()); }

private:
    ScheduleStore* store_ = nullptr;
    std::vector<VertexId>* outer_ = nullptr;
    std::vector<VertexId> vertices_;
};

// Adds the vertices holding records of live job `job` and the job's rows
// there: the tag walk from the dominant root (what cancel walks). A job the
// root does not carry (applied some other way) makes everything dirty.
void add_job_vertices(const Session& s, int64_t job, Dirty& out);

// Deletes every vertex and job row.
Status clear_rows(Database& db);
// Rewrites the rows of `dirty` (every row when dirty.all) and returns the
// new rows digest.
Result<uint64_t> write_vertex_rows(Database& db, const Session& s, const Dirty& dirty, uint64_t digest);
// Rewrites the job rows of `ids` (deleting those no longer in the table).
Result<uint64_t> write_job_rows(Database& db, const Session& s, const std::set<int64_t>& ids, uint64_t digest);

// Restores every vertex and job row onto a session just loaded from the
// saved source; refuses rows that do not sum to `digest` or do not fit
// the graph.
Status restore_rows(Database& db, Session& s, uint64_t digest);

}  // namespace rq::state
