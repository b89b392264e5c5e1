#include "state/rows.h"

#include <algorithm>
#include <cinttypes>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>
#include <vector>

#include "session/command_words.h"
#include "state/digest.h"
#include "state/job_r.h"
#include "state/queue_rows.h"
#include "state/row_types.h"

namespace rq::state {

const char* const kRowSchema = R"(
CREATE TABLE IF NOT EXISTS job(id INTEGER PRIMARY KEY, state TEXT NOT NULL, scheduled_at INTEGER NOT NULL,
                               jobspec TEXT NOT NULL, overhead REAL NOT NULL, r TEXT NOT NULL,
                               start INTEGER NOT NULL, end INTEGER NOT NULL, digest INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS vertex(v INTEGER PRIMARY KEY, up INTEGER NOT NULL, properties BLOB NOT NULL,
                                  weights TEXT NOT NULL, record INTEGER NOT NULL, own_next INTEGER NOT NULL,
                                  x_next INTEGER NOT NULL, labels BLOB NOT NULL, digest INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS subtree(v INTEGER NOT NULL, slot INTEGER NOT NULL, next_id INTEGER NOT NULL,
                                   planner_next TEXT NOT NULL, digest INTEGER NOT NULL,
                                   PRIMARY KEY (v, slot)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vertex_job(v INTEGER NOT NULL, job INTEGER NOT NULL, kind TEXT NOT NULL,
                                      span INTEGER NOT NULL, digest INTEGER NOT NULL,
                                      PRIMARY KEY (v, job, kind)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS span(v INTEGER NOT NULL, job INTEGER NOT NULL, planner TEXT NOT NULL,
                                id INTEGER NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL,
                                amount INTEGER NOT NULL, digest INTEGER NOT NULL,
                                PRIMARY KEY (v, job, planner, id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS multispan(v INTEGER NOT NULL, job INTEGER NOT NULL, slot INTEGER NOT NULL,
                                     id INTEGER NOT NULL, per_type TEXT NOT NULL, digest INTEGER NOT NULL,
                                     PRIMARY KEY (v, job, slot, id)) WITHOUT ROWID;
)";

namespace {

using namespace rows_detail;

const char* const kVertexTables[] = {"vertex", "subtree", "vertex_job", "span", "multispan"};
const char* const kJobTables[] = {"vertex_job", "span", "multispan"};

size_t slots_of(const Session& s) { return s.traverser ? s.traverser->subsystems().size() : 0; }

void add_span(Rows& out, VertexId v, int64_t job, const std::string& name, const Planner& p, SpanId id) {
    if (const Span* sp = p.span(id)) out.spans.push_back(SpanRow{v, job, name, sp->id, sp->start, sp->end, sp->amount});
}

// The multi-span `id` of a subtree plan and its per-type spans.
void add_multispan(Rows& out, VertexId v, int64_t job, size_t slot, const MultiPlanner& plan, SpanId id,
                   const std::vector<SpanId>& per) {
    std::string text;
    for (size_t i = 0; i < per.size(); ++i) {
        text += std::to_string(per[i]) + " ";
        if (per[i] != 0 && i < plan.size())
            add_span(out, v, job, "s" + std::to_string(slot) + "." + std::to_string(i), plan.planner(i), per[i]);
    }
    out.multis.push_back(MultiRow{v, job, static_cast<int64_t>(slot), id, text});
}

// The rows of job j at v: its tag, its records and their spans.
void job_rows(const Session& s, VertexId v, int64_t j, Rows& out) {
    if (const VertexSchedule* r = s.store->find(v)) {
        if (r->tags.count(j)) out.jobs.push_back(JobRow{v, j, "tag", 0});
        if (auto a = r->allocations.find(j); a != r->allocations.end()) {
            out.jobs.push_back(JobRow{v, j, "alloc", a->second});
            add_span(out, v, j, "own", r->plan, a->second);
        }
        if (auto a = r->reservations.find(j); a != r->reservations.end()) {
            out.jobs.push_back(JobRow{v, j, "resv", a->second});
            add_span(out, v, j, "own", r->plan, a->second);
        }
        if (auto a = r->x_spans().find(j); a != r->x_spans().end()) {
            out.jobs.push_back(JobRow{v, j, "x", a->second});
            add_span(out, v, j, "x", r->x_checker(), a->second);
        }
    }
    for (size_t slot = 0; slot < slots_of(s); ++slot) {
        const SubtreePlan* sp = s.store->subtree(v, slot);
        if (sp == nullptr) continue;
        auto a = sp->job2span.find(j);
        if (a == sp->job2span.end()) continue;
        out.jobs.push_back(JobRow{v, j, "s" + std::to_string(slot), a->second});
        if (auto per = sp->plan.multispan(a->second)) add_multispan(out, v, j, slot, sp->plan, a->second, *per);
    }
}

// Whether every span at v belongs to a job record (then a job's rows can
// be rewritten alone); O(slots).
bool regular(const Session& s, VertexId v) {
    if (const VertexSchedule* r = s.store->find(v))
        if (r->plan.span_count() != r->allocations.size() + r->reservations.size() ||
            r->x_checker().span_count() != r->x_spans().size())
            return false;
    for (size_t slot = 0; slot < slots_of(s); ++slot)
        if (const SubtreePlan* sp = s.store->subtree(v, slot); sp && sp->plan.span_count() != sp->job2span.size())
            return false;
    return true;
}

// v's own rows, or none when v is as loaded (up, no properties, weights,
// record or used subtree plan).
void vertex_rows(const Session& s, VertexId v, Rows& out) {
    const ResourceGraph& g = *s.graph;
    VertexRow row;
    row.v = v;
    row.up = g.is_up(v) ? 1 : 0;
    bool changed = row.up == 0;
    if (const PropertyMap* p = g.properties(v); p != nullptr && !p->empty()) {
        row.properties = encode_pairs(*p);
        changed = true;
    }
    for (EdgeId e : g.in(v))
        if (g.weight(e) != UINT64_MAX) row.weights += std::to_string(e) + " " + std::to_string(g.weight(e)) + " ";
    changed = changed || !row.weights.empty();
    if (const VertexSchedule* r = s.store->find(v)) {
        changed = true;
        row.record = 1;
        row.own_next = r->plan.next_span_id();
        row.x_next = r->x_checker().next_span_id();
        if (const Labels::Map* labels = r->ephemeral.get()) row.labels = encode_pairs(*labels);
    }
    for (size_t slot = 0; slot < slots_of(s); ++slot) {
        const SubtreePlan* sp = s.store->subtree(v, slot);
        if (sp == nullptr || sp->plan.next_span_id() == 0) continue;
        changed = true;
        std::string nexts;
        for (size_t i = 0; i < sp->plan.size(); ++i) nexts += std::to_string(sp->plan.planner(i).next_span_id()) + " ";
        out.subs.push_back(SubRow{v, static_cast<int64_t>(slot), sp->plan.next_span_id(), nexts});
    }
    if (changed) out.vertex = row;
}

// Every row of v: its own, each job's, and spans no job record names.
void all_rows(const Session& s, VertexId v, Rows& out) {
    vertex_rows(s, v, out);
    std::set<int64_t> jobs;
    if (const VertexSchedule* r = s.store->find(v)) {
        for (JobId j : r->tags) jobs.insert(j);
        for (auto& e : r->allocations) jobs.insert(e.first);
        for (auto& e : r->reservations) jobs.insert(e.first);
        for (auto& e : r->x_spans()) jobs.insert(e.first);
    }
    for (size_t slot = 0; slot < slots_of(s); ++slot)
        if (const SubtreePlan* sp = s.store->subtree(v, slot))
            for (auto& e : sp->job2span) jobs.insert(e.first);
    for (int64_t j : jobs) job_rows(s, v, j, out);
    if (regular(s, v)) return;
    // Spans and multi-spans outside the job records: by id.
    std::set<std::pair<std::string, SpanId>> named;
    std::set<std::pair<int64_t, SpanId>> named_multi;
    for (auto& sp : out.spans) named.insert({sp.planner, sp.id});
    for (auto& m : out.multis) named_multi.insert({m.slot, m.id});
    auto rest = [&](const std::string& name, const Planner& p) {
        size_t found = 0;
        for (SpanId id = 1; id < p.next_span_id() && found < p.span_count(); ++id)
            if (p.span(id) != nullptr && ++found && !named.count({name, id})) add_span(out, v, kNoJob, name, p, id);
    };
    if (const VertexSchedule* r = s.store->find(v)) {
        rest("own", r->plan);
        rest("x", r->x_checker());
    }
    for (size_t slot = 0; slot < slots_of(s); ++slot)
        if (const SubtreePlan* sp = s.store->subtree(v, slot))
            for (SpanId id = 0; id < sp->plan.next_span_id(); ++id)
                if (auto per = sp->plan.multispan(id); per && !named_multi.count({static_cast<int64_t>(slot), id}))
                    add_multispan(out, v, kNoJob, slot, sp->plan, id, *per);
}

struct Writer {
    Statement *vertex = nullptr, *sub = nullptr, *job = nullptr, *span = nullptr, *multi = nullptr;
    Status prepare(Database& db) {
        return db.cached_each({{&vertex, "INSERT INTO vertex VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"},
                               {&sub, "INSERT INTO subtree VALUES (?1, ?2, ?3, ?4, ?5)"},
                               {&job, "INSERT INTO vertex_job VALUES (?1, ?2, ?3, ?4, ?5)"},
                               {&span, "INSERT INTO span VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"},
                               {&multi, "INSERT INTO multispan VALUES (?1, ?2, ?3, ?4, ?5, ?6)"}});
    }
    static int64_t d(uint64_t digest) { return static_cast<int64_t>(digest); }
    // Inserts `rows`; returns the sum of their digests.
    Result<uint64_t> put(const Rows& rows) {
        uint64_t sum = 0;
        if (const auto& r = rows.vertex) {
            sum += r->digest();
            RQ_TRY(vertex->bind(1, r->v).bind(2, r->up).bind_blob(3, r->properties).bind(4, r->weights)
                       .bind(5, r->record).bind(6, r->own_next).bind(7, r->x_next).bind_blob(8, r->labels)
                       .bind(9, d(r->digest())).run());
        }
        for (auto& x : rows.subs) {
            sum += x.digest();
            RQ_TRY(sub->bind(1, x.v).bind(2, x.slot).bind(3, x.next_id).bind(4, x.planner_next).bind(5, d(x.digest())).run());
        }
        for (auto& x : rows.jobs) {
            sum += x.digest();
            RQ_TRY(job->bind(1, x.v).bind(2, x.job).bind(3, x.kind).bind(4, x.span).bind(5, d(x.digest())).run());
        }
        for (auto& x : rows.spans) {
            sum += x.digest();
            RQ_TRY(span->bind(1, x.v).bind(2, x.job).bind(3, x.planner).bind(4, x.id).bind(5, x.start)
                       .bind(6, x.end).bind(7, x.amount).bind(8, d(x.digest())).run());
        }
        for (auto& x : rows.multis) {
            sum += x.digest();
            RQ_TRY(multi->bind(1, x.v).bind(2, x.job).bind(3, x.slot).bind(4, x.id).bind(5, x.per_type)
                       .bind(6, d(x.digest())).run());
        }
        return sum;
    }
};

// Deletes rows by key (?1, and ?2 if given), returning the sum of the
// deleted rows' digests (mod 2^64, row by row).
struct Eraser {
    std::vector<Statement*> selects, drops;
    Status prepare(Database& db, const char* const* tables, size_t n, const std::string& where) {
        for (size_t i = 0; i < n; ++i) {
            auto select = db.cached(std::string("SELECT digest FROM ") + tables[i] + " WHERE " + where);
            if (!select) return select.error();
            selects.push_back(*select);
            auto drop = db.cached(std::string("DELETE FROM ") + tables[i] + " WHERE " + where);
            if (!drop) return drop.error();
            drops.push_back(*drop);
        }
        return ok_status();
    }
    Result<uint64_t> erase(int64_t first, std::optional<int64_t> second = std::nullopt) {
        uint64_t sum = 0;
        for (size_t i = 0; i < selects.size(); ++i) {
            Statement& q = *selects[i];
            q.bind(1, first);
            if (second) q.bind(2, *second);
            Status status;
            bool any = false;
            while (q.step(status)) sum += static_cast<uint64_t>(q.integer(0)), any = true;
            q.reset();
            if (!status) return status.error();
            if (!any) continue;  // a new job's rows: nothing to delete
            drops[i]->bind(1, first);
            if (second) drops[i]->bind(2, *second);
            RQ_TRY(drops[i]->run());
        }
        return sum;
    }
};

const char* job_state_name(JobState st) {
    switch (st) {
    case JobState::kAllocated: return "allocated";
    case JobState::kReserved: return "reserved";
    case JobState::kCanceled: return "canceled";
    }
    return "?";
}

// The digest column of the row of `key` in `table` (0 if none).
Result<uint64_t> old_digest(Statement& select, int64_t key) {
    Status status;
    select.bind(1, key);
    uint64_t old = select.step(status) ? static_cast<uint64_t>(select.integer(0)) : 0;
    select.reset();
    if (!status) return status.error();
    return old;
}


}  // namespace

bool is_row_command(const std::string& word) {
    if (is_queue_row_command(word) || changes_labels_only(word)) return true;  // state/queue_rows.h
    return is_command(word, {"match", "multi-match", "update", "cancel", "partial-cancel", "set-status",
                             "set-property", "attach", "remove"});
}

bool changes_labels_only(const std::string& word) { return is_command(word, {"find", "allocated", "available"}); }

LabelWatch::LabelWatch(Session& s, bool on) {
    if (!on || !s.store) return;
    store_ = s.store.get();
    outer_ = store_->label_log();
    store_->set_label_log(&vertices_);
}

LabelWatch::~LabelWatch() {
    if (store_ == nullptr) return;
    store_->set_label_log(outer_);
    if (outer_ != nullptr) outer_->insert(outer_->end(), vertices_.begin(), vertices_.end());
}

void add_job_vertices(const Session& s, int64_t job, Dirty& out) {
    if (out.all || !s.graph || !s.traverser) return;
    const ResourceGraph& g = *s.graph;
    VertexId root = g.root(s.traverser->dominant());
    const VertexSchedule* rr = root == kNoVertex ? nullptr : s.store->find(root);
    if (rr == nullptr || rr->tags.count(job) == 0) {
        out.all = true;
        return;
    }
    std::vector<VertexId> stack{root};
    while (!stack.empty()) {
        VertexId u = stack.back();
        stack.pop_back();
        const VertexSchedule* r = s.store->find(u);
        if (r == nullptr || r->tags.count(job) == 0 || !out.jobs.insert({u, job}).second) continue;
        out.vertices.insert(u);
        for (EdgeId e : g.out(u)) stack.push_back(g.target(e));
    }
}

Status clear_rows(Database& db) {
    for (const char* table : kVertexTables) RQ_TRY(db.exec(std::string("DELETE FROM ") + table));
    return db.exec("DELETE FROM job");
}

Result<uint64_t> write_vertex_rows(Database& db, const Session& s, const Dirty& dirty, uint64_t digest) {
    Writer w;
    RQ_TRY(w.prepare(db));
    const size_t n = s.graph->num_vertices();
    if (dirty.all) {
        // Everything again: the old rows' digests leave the sum.
        for (const char* table : kVertexTables) {
            auto old = db.prepare(std::string("SELECT digest FROM ") + table);
            if (!old) return old.error();
            Status status;
            while (old->step(status)) digest -= static_cast<uint64_t>(old->integer(0));
            if (!status) return status.error();
            RQ_TRY(db.exec(std::string("DELETE FROM ") + table));
        }
        for (VertexId v = 0; v < n; ++v) {
            Rows rows;
            all_rows(s, v, rows);
            auto added = w.put(rows);
            if (!added) return added.error();
            digest += *added;
        }
        return digest;
    }
    // Own rows of each dirty vertex; then, per (vertex, job), that job's
    // rows, or every row of a vertex whose spans are not all in job records.
    Eraser own, whole, one_job;
    RQ_TRY(own.prepare(db, kVertexTables, 2, "v = ?1"));
    RQ_TRY(whole.prepare(db, kJobTables, 3, "v = ?1"));
    RQ_TRY(one_job.prepare(db, kJobTables, 3, "v = ?1 AND job = ?2"));
    std::set<VertexId> rewritten;
    for (VertexId v : dirty.vertices) {
        auto old = own.erase(v);
        if (!old) return old.error();
        digest -= *old;
        Rows rows;
        if (v < n && !regular(s, v)) {
            auto rest = whole.erase(v);
            if (!rest) return rest.error();
            digest -= *rest;
            all_rows(s, v, rows);
            rewritten.insert(v);
        } else {
            // Spans once outside the job records may be gone since.
            auto stale = one_job.erase(v, kNoJob);
            if (!stale) return stale.error();
            digest -= *stale;
            if (v < n) vertex_rows(s, v, rows);
        }
        auto added = w.put(rows);
        if (!added) return added.error();
        digest += *added;
    }
    for (auto [v, job] : dirty.jobs) {
        if (rewritten.count(v)) continue;
        auto old = one_job.erase(v, job);
        if (!old) return old.error();
        digest -= *old;
        Rows rows;
        if (v < n) job_rows(s, v, job, rows);
        auto added = w.put(rows);
        if (!added) return added.error();
        digest += *added;
    }
    return digest;
}

Result<uint64_t> write_job_rows(Database& db, const Session& s, const std::set<int64_t>& ids, uint64_t digest) {
    auto put_ = db.cached("INSERT OR REPLACE INTO job VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    auto drop_ = db.cached("DELETE FROM job WHERE id = ?1");
    auto select_ = db.cached("SELECT digest FROM job WHERE id = ?1");
    if (!put_) return put_.error();
    if (!drop_) return drop_.error();
    if (!select_) return select_.error();
    Statement *put = *put_, *drop = *drop_, *select = *select_;
    for (int64_t id : ids) {
        auto old = old_digest(*select, id);
        if (!old) return old.error();
        digest -= *old;
        auto found = s.jobs.find(id);
        if (!found) {
            RQ_TRY(drop->bind(1, id).run());
            continue;
        }
        const JobRecord& j = *found;
        std::string state = job_state_name(j.state), spec = j.jobspec_path ? *j.jobspec_path : std::string();
        JobR r = job_r(s, id);  // state/job_r.h
        uint64_t d = job_digest(id, state, j.scheduled_at, spec, j.overhead, r);
        RQ_TRY(put->bind(1, id).bind(2, state).bind(3, j.scheduled_at).bind(4, spec).bind(5, j.overhead)
                   .bind(6, r.r).bind(7, r.start).bind(8, r.end).bind(9, static_cast<int64_t>(d)).run());
        digest += d;
    }
    return digest;
}

}  // namespace rq::state
