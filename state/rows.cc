#include "state/rows.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>
#include <vector>

#include "cli/command_table.h"
#include "state/digest.h"

namespace rq::state {

const char* const kRowSchema = R"(
CREATE TABLE IF NOT EXISTS job(id INTEGER PRIMARY KEY, state TEXT NOT NULL, scheduled_at INTEGER NOT NULL,
                               jobspec TEXT NOT NULL, overhead REAL NOT NULL, digest INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS vertex(v INTEGER PRIMARY KEY, up INTEGER NOT NULL, properties BLOB NOT NULL,
                                  weights TEXT NOT NULL, record INTEGER NOT NULL, own_next INTEGER NOT NULL,
                                  x_next INTEGER NOT NULL, tags TEXT NOT NULL, labels BLOB NOT NULL,
                                  digest INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS span(v INTEGER NOT NULL, planner TEXT NOT NULL, id INTEGER NOT NULL,
                                start INTEGER NOT NULL, end INTEGER NOT NULL, amount INTEGER NOT NULL,
                                PRIMARY KEY (v, planner, id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vertex_job(v INTEGER NOT NULL, kind TEXT NOT NULL, job INTEGER NOT NULL,
                                      span INTEGER NOT NULL, PRIMARY KEY (v, kind, job)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS subtree(v INTEGER NOT NULL, slot INTEGER NOT NULL, next_id INTEGER NOT NULL,
                                   planner_next TEXT NOT NULL, PRIMARY KEY (v, slot)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS multispan(v INTEGER NOT NULL, slot INTEGER NOT NULL, id INTEGER NOT NULL,
                                     per_type TEXT NOT NULL, PRIMARY KEY (v, slot, id)) WITHOUT ROWID;
)";

namespace {

const char* const kVertexTables[] = {"vertex", "span", "vertex_job", "subtree", "multispan"};

struct SpanRow {
    std::string planner;  // own, x, or s<slot>.<type index>
    int64_t id, start, end, amount;
    auto key() const { return std::tie(planner, id); }
};
struct JobRow {
    std::string kind;  // alloc, resv, x, or s<slot>
    int64_t job, span;
    auto key() const { return std::tie(kind, job); }
};
struct SubRow {
    int64_t slot, next_id;
    std::string planner_next;  // each per-type planner's next span id
};
struct MultiRow {
    int64_t slot, id;
    std::string per_type;  // span ids, space separated
    auto key() const { return std::tie(slot, id); }
};

// All rows of one vertex.
struct VertexRow {
    int64_t v = 0, up = 1, record = 0, own_next = 1, x_next = 1;
    std::string properties, weights, tags, labels;
    std::vector<SpanRow> spans;
    std::vector<JobRow> jobs;
    std::vector<SubRow> subs;
    std::vector<MultiRow> multis;

    void sort() {
        std::sort(spans.begin(), spans.end(), [](auto& a, auto& b) { return a.key() < b.key(); });
        std::sort(jobs.begin(), jobs.end(), [](auto& a, auto& b) { return a.key() < b.key(); });
        std::sort(subs.begin(), subs.end(), [](auto& a, auto& b) { return a.slot < b.slot; });
        std::sort(multis.begin(), multis.end(), [](auto& a, auto& b) { return a.key() < b.key(); });
    }
    uint64_t digest() const {
        Digest d;
        for (int64_t n : {v, up, record, own_next, x_next}) d.add_number(static_cast<uint64_t>(n));
        d.add(properties).add(weights).add(tags).add(labels);
        d.add_number(spans.size());
        for (auto& r : spans)
            d.add(r.planner).add_number(r.id).add_number(r.start).add_number(r.end).add_number(r.amount);
        d.add_number(jobs.size());
        for (auto& r : jobs) d.add(r.kind).add_number(r.job).add_number(r.span);
        d.add_number(subs.size());
        for (auto& r : subs) d.add_number(r.slot).add_number(r.next_id).add(r.planner_next);
        d.add_number(multis.size());
        for (auto& r : multis) d.add_number(r.slot).add_number(r.id).add(r.per_type);
        return d.value();
    }
};

// Length-prefixed key/value pairs: any bytes survive.
template <class Map>
std::string encode_pairs(const Map& m) {
    std::string out;
    for (auto& [k, v] : m) out += std::to_string(k.size()) + ":" + k + std::to_string(v.size()) + ":" + v;
    return out;
}

bool decode_pairs(const std::string& text, std::vector<std::pair<std::string, std::string>>& out) {
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

std::vector<int64_t> numbers(const std::string& text) {
    std::vector<int64_t> out;
    std::istringstream in(text);
    for (int64_t n; in >> n;) out.push_back(n);
    return out;
}

template <class Map>
void add_jobs(VertexRow& row, const char* kind, const Map& m) {
    for (auto& [job, span] : m) row.jobs.push_back(JobRow{kind, job, span});
}

// The spans of planner p named by `ids` (the job maps), or, if they do
// not account for all of them, every id below the next one.
void add_spans(VertexRow& row, const std::string& name, const Planner& p, std::vector<SpanId> ids) {
    if (ids.size() != p.span_count()) {
        ids.clear();
        for (SpanId id = 1; id < p.next_span_id() && ids.size() < p.span_count(); ++id)
            if (p.span(id) != nullptr) ids.push_back(id);
    }
    for (SpanId id : ids)
        if (const Span* sp = p.span(id)) row.spans.push_back(SpanRow{name, sp->id, sp->start, sp->end, sp->amount});
}

template <class Map>
std::vector<SpanId> span_ids(const Map& m) {
    std::vector<SpanId> out;
    for (auto& [job, span] : m) out.push_back(span);
    return out;
}

size_t slots_of(const Session& s) { return s.traverser ? s.traverser->subsystems().size() : 0; }

// The rows of v, or nothing when v is as loaded (up, no properties,
// weights, record or used subtree plan).
std::optional<VertexRow> row_of(const Session& s, VertexId v) {
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
        row.x_next = r->x_checker.next_span_id();
        std::vector<SpanId> own = span_ids(r->allocations), x = span_ids(r->x_spans);
        for (SpanId id : span_ids(r->reservations)) own.push_back(id);
        add_spans(row, "own", r->plan, own);
        add_spans(row, "x", r->x_checker, x);
        add_jobs(row, "alloc", r->allocations);
        add_jobs(row, "resv", r->reservations);
        add_jobs(row, "x", r->x_spans);
        for (JobId j : r->tags) row.tags += std::to_string(j) + " ";
        if (const Labels::Map* labels = r->ephemeral.get()) row.labels = encode_pairs(*labels);
    }
    for (size_t slot = 0; slot < slots_of(s); ++slot) {
        const SubtreePlan* sp = s.store->subtree(v, slot);
        if (sp == nullptr || sp->plan.next_span_id() == 0) continue;
        changed = true;
        const std::string tag = "s" + std::to_string(slot);
        std::string nexts;
        for (size_t i = 0; i < sp->plan.size(); ++i) nexts += std::to_string(sp->plan.planner(i).next_span_id()) + " ";
        row.subs.push_back(SubRow{static_cast<int64_t>(slot), sp->plan.next_span_id(), nexts});
        std::vector<std::vector<SpanId>> per_planner(sp->plan.size());
        sp->plan.for_each_multispan([&](SpanId id, const std::vector<SpanId>& per) {
            std::string text;
            for (size_t i = 0; i < per.size(); ++i) {
                text += std::to_string(per[i]) + " ";
                if (per[i] != 0 && i < per_planner.size()) per_planner[i].push_back(per[i]);
            }
            row.multis.push_back(MultiRow{static_cast<int64_t>(slot), id, text});
        });
        for (size_t i = 0; i < sp->plan.size(); ++i)
            add_spans(row, tag + "." + std::to_string(i), sp->plan.planner(i), per_planner[i]);
        add_jobs(row, tag.c_str(), sp->job2span);
    }
    if (!changed) return std::nullopt;
    row.sort();
    return row;
}

struct VertexWriter {
    Result<Statement> vertex, span, job, sub, multi;
    explicit VertexWriter(Database& db)
        : vertex(db.prepare("INSERT INTO vertex VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)")),
          span(db.prepare("INSERT INTO span VALUES (?1, ?2, ?3, ?4, ?5, ?6)")),
          job(db.prepare("INSERT INTO vertex_job VALUES (?1, ?2, ?3, ?4)")),
          sub(db.prepare("INSERT INTO subtree VALUES (?1, ?2, ?3, ?4)")),
          multi(db.prepare("INSERT INTO multispan VALUES (?1, ?2, ?3, ?4)")) {}
    Status ready() const {
        for (auto* st : {&vertex, &span, &job, &sub, &multi})
            if (!*st) return st->error();
        return ok_status();
    }
    Status put(const VertexRow& r, uint64_t digest) {
        RQ_TRY(vertex->bind(1, r.v).bind(2, r.up).bind_blob(3, r.properties).bind(4, r.weights).bind(5, r.record)
                   .bind(6, r.own_next).bind(7, r.x_next).bind(8, r.tags).bind_blob(9, r.labels)
                   .bind(10, static_cast<int64_t>(digest)).run());
        for (auto& x : r.spans)
            RQ_TRY(span->bind(1, r.v).bind(2, x.planner).bind(3, x.id).bind(4, x.start).bind(5, x.end)
                       .bind(6, x.amount).run());
        for (auto& x : r.jobs) RQ_TRY(job->bind(1, r.v).bind(2, x.kind).bind(3, x.job).bind(4, x.span).run());
        for (auto& x : r.subs) RQ_TRY(sub->bind(1, r.v).bind(2, x.slot).bind(3, x.next_id).bind(4, x.planner_next).run());
        for (auto& x : r.multis) RQ_TRY(multi->bind(1, r.v).bind(2, x.slot).bind(3, x.id).bind(4, x.per_type).run());
        return ok_status();
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

uint64_t job_digest(int64_t id, const std::string& state, int64_t at, const std::string& jobspec, double overhead) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", overhead);
    return Digest().add_number(static_cast<uint64_t>(id)).add(state).add_number(static_cast<uint64_t>(at))
        .add(jobspec).add(buf).value();
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

Error corrupt_rows(const Database& db, const std::string& what) {
    return make_error(Errc::kInvalid, db.path() + ": corrupt resource-query state file: " + what);
}

}  // namespace

bool is_row_command(const std::string& word) {
    const Command* c = find_command(word);
    if (c == nullptr) return false;
    for (const char* name : {"match", "multi-match", "update", "cancel", "partial-cancel", "set-status", "set-property"})
        if (std::strcmp(c->name, name) == 0) return true;
    return false;
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
        if (r == nullptr || r->tags.count(job) == 0 || !out.vertices.insert(u).second) continue;
        for (EdgeId e : g.out(u)) stack.push_back(g.target(e));
    }
}

Status clear_rows(Database& db) {
    for (const char* table : kVertexTables) RQ_TRY(db.exec(std::string("DELETE FROM ") + table));
    return db.exec("DELETE FROM job");
}

Result<uint64_t> write_vertex_rows(Database& db, const Session& s, const Dirty& dirty, uint64_t digest) {
    VertexWriter w(db);
    RQ_TRY(w.ready());
    if (dirty.all) {
        // Everything again: the old rows' digests leave the sum.
        auto old = db.prepare("SELECT digest FROM vertex");
        if (!old) return old.error();
        Status status;
        while (old->step(status)) digest -= static_cast<uint64_t>(old->integer(0));
        if (!status) return status.error();
        for (const char* table : kVertexTables) RQ_TRY(db.exec(std::string("DELETE FROM ") + table));
        for (VertexId v = 0; v < s.graph->num_vertices(); ++v)
            if (auto row = row_of(s, v)) {
                uint64_t d = row->digest();
                RQ_TRY(w.put(*row, d));
                digest += d;
            }
        return digest;
    }
    auto select = db.prepare("SELECT digest FROM vertex WHERE v = ?1");
    if (!select) return select.error();
    std::vector<Statement> drops;
    for (const char* table : kVertexTables) {
        auto st = db.prepare(std::string("DELETE FROM ") + table + " WHERE v = ?1");
        if (!st) return st.error();
        drops.push_back(std::move(*st));
    }
    for (VertexId v : dirty.vertices) {
        auto old = old_digest(*select, v);
        if (!old) return old.error();
        digest -= *old;
        for (Statement& d : drops) RQ_TRY(d.bind(1, static_cast<int64_t>(v)).run());
        if (v >= s.graph->num_vertices()) continue;
        if (auto row = row_of(s, v)) {
            uint64_t d = row->digest();
            RQ_TRY(w.put(*row, d));
            digest += d;
        }
    }
    return digest;
}

Result<uint64_t> write_job_rows(Database& db, const Session& s, const std::set<int64_t>& ids, uint64_t digest) {
    auto put = db.prepare("INSERT OR REPLACE INTO job VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    auto drop = db.prepare("DELETE FROM job WHERE id = ?1");
    auto select = db.prepare("SELECT digest FROM job WHERE id = ?1");
    if (!put) return put.error();
    if (!drop) return drop.error();
    if (!select) return select.error();
    for (int64_t id : ids) {
        auto old = old_digest(*select, id);
        if (!old) return old.error();
        digest -= *old;
        auto it = s.jobs.find(id);
        if (it == s.jobs.end()) {
            RQ_TRY(drop->bind(1, id).run());
            continue;
        }
        const JobRecord& j = it->second;
        std::string state = job_state_name(j.state), spec = j.jobspec_path ? *j.jobspec_path : std::string();
        uint64_t d = job_digest(id, state, j.scheduled_at, spec, j.overhead);
        RQ_TRY(put->bind(1, id).bind(2, state).bind(3, j.scheduled_at).bind(4, spec).bind(5, j.overhead)
                   .bind(6, static_cast<int64_t>(d)).run());
        digest += d;
    }
    return digest;
}

namespace {

// Reads every vertex's rows; checks each row's digest, adds them to `sum`.
Result<std::map<int64_t, VertexRow>> read_vertex_rows(Database& db, uint64_t& sum) {
    std::map<int64_t, VertexRow> rows;
    std::map<int64_t, uint64_t> stored;
    Status status;
    auto vs = db.prepare("SELECT v, up, properties, weights, record, own_next, x_next, tags, labels, digest FROM vertex");
    if (!vs) return vs.error();
    while (vs->step(status)) {
        VertexRow& r = rows[vs->integer(0)];
        r.v = vs->integer(0);
        r.up = vs->integer(1);
        r.properties = vs->text(2);
        r.weights = vs->text(3);
        r.record = vs->integer(4);
        r.own_next = vs->integer(5);
        r.x_next = vs->integer(6);
        r.tags = vs->text(7);
        r.labels = vs->text(8);
        stored[r.v] = static_cast<uint64_t>(vs->integer(9));
    }
    if (!status) return status.error();
    auto owner = [&](int64_t v) -> VertexRow* {
        auto it = rows.find(v);
        return it == rows.end() ? nullptr : &it->second;
    };
    auto spans = db.prepare("SELECT v, planner, id, start, end, amount FROM span");
    auto jobs = db.prepare("SELECT v, kind, job, span FROM vertex_job");
    auto subs = db.prepare("SELECT v, slot, next_id, planner_next FROM subtree");
    auto multis = db.prepare("SELECT v, slot, id, per_type FROM multispan");
    for (auto* st : {&spans, &jobs, &subs, &multis})
        if (!*st) return st->error();
    while (spans->step(status)) {
        VertexRow* r = owner(spans->integer(0));
        if (r == nullptr) return corrupt_rows(db, "a span of no vertex row");
        r->spans.push_back(SpanRow{spans->text(1), spans->integer(2), spans->integer(3), spans->integer(4), spans->integer(5)});
    }
    while (status && jobs->step(status)) {
        VertexRow* r = owner(jobs->integer(0));
        if (r == nullptr) return corrupt_rows(db, "a job record of no vertex row");
        r->jobs.push_back(JobRow{jobs->text(1), jobs->integer(2), jobs->integer(3)});
    }
    while (status && subs->step(status)) {
        VertexRow* r = owner(subs->integer(0));
        if (r == nullptr) return corrupt_rows(db, "a subtree plan of no vertex row");
        r->subs.push_back(SubRow{subs->integer(1), subs->integer(2), subs->text(3)});
    }
    while (status && multis->step(status)) {
        VertexRow* r = owner(multis->integer(0));
        if (r == nullptr) return corrupt_rows(db, "a multi-span of no vertex row");
        r->multis.push_back(MultiRow{multis->integer(1), multis->integer(2), multis->text(3)});
    }
    if (!status) return status.error();
    for (auto& [v, r] : rows) {
        r.sort();
        uint64_t d = r.digest();
        if (d != stored[v]) return corrupt_rows(db, "the rows of vertex " + std::to_string(v) + " do not match their checksum");
        sum += d;
    }
    return rows;
}

// Puts one vertex's rows back onto the freshly loaded session.
Status apply(Session& s, const VertexRow& r, const std::string& where) {
    ResourceGraph& g = *s.graph;
    auto bad = [&](const std::string& what) {
        return make_error(Errc::kInvalid, where + ": vertex " + std::to_string(r.v) + ": " + what);
    };
    if (r.v < 0 || static_cast<size_t>(r.v) >= g.num_vertices()) return bad("no such vertex in the saved graph");
    VertexId v = static_cast<VertexId>(r.v);
    g.set_up(v, r.up != 0);
    std::vector<std::pair<std::string, std::string>> pairs;
    if (!decode_pairs(r.properties, pairs)) return bad("bad properties");
    for (auto& [k, val] : pairs) g.set_property(v, k, val);
    std::vector<int64_t> w = numbers(r.weights);
    if (w.size() % 2 != 0) return bad("bad weights");
    for (size_t i = 0; i < w.size(); i += 2) {
        if (w[i] < 0 || static_cast<size_t>(w[i]) >= g.edge_capacity() || !g.edge_alive(static_cast<EdgeId>(w[i])) ||
            g.target(static_cast<EdgeId>(w[i])) != v)
            return bad("a weight on no in-edge");
        g.set_weight(static_cast<EdgeId>(w[i]), static_cast<uint64_t>(w[i + 1]));
    }
    VertexSchedule* rec = r.record ? &s.store->get(v, g.size(v)) : nullptr;
    std::map<int64_t, SubtreePlan*> subs;
    for (const SubRow& sub : r.subs) {
        SubtreePlan* sp = sub.slot >= 0 ? s.store->subtree(v, static_cast<size_t>(sub.slot)) : nullptr;
        if (sp == nullptr) return bad("a subtree plan the graph does not have");
        std::vector<int64_t> nexts = numbers(sub.planner_next);
        if (nexts.size() != sp->plan.size()) return bad("a subtree plan of other types");
        sp->plan.restore_next_id(sub.next_id);
        for (size_t i = 0; i < nexts.size(); ++i) sp->plan.planner_to_restore(i).restore_next_id(nexts[i]);
        subs[sub.slot] = sp;
    }
    for (const SpanRow& sp : r.spans) {
        Planner* p = nullptr;
        if (sp.planner == "own" && rec) p = &rec->plan;
        if (sp.planner == "x" && rec) p = &rec->x_checker;
        int64_t slot = 0, i = 0;
        if (sp.planner[0] == 's' && std::sscanf(sp.planner.c_str(), "s%" SCNd64 ".%" SCNd64, &slot, &i) == 2 &&
            subs.count(slot) && i >= 0 && static_cast<size_t>(i) < subs[slot]->plan.size())
            p = &subs[slot]->plan.planner_to_restore(static_cast<size_t>(i));
        if (p == nullptr) return bad("a span of no planner (" + sp.planner + ")");
        auto added = p->restore_span(Span{sp.id, sp.start, sp.end, sp.amount});
        if (!added) return bad("span " + std::to_string(sp.id) + " of " + sp.planner + ": " + added.message());
    }
    if (rec) {
        rec->plan.restore_next_id(r.own_next);
        rec->x_checker.restore_next_id(r.x_next);
        for (int64_t j : numbers(r.tags)) rec->tags.insert(j);
        if (!decode_pairs(r.labels, pairs = {})) return bad("bad labels");
        for (auto& [k, val] : pairs) rec->ephemeral[k] = val;
    }
    int64_t last_slot = -1, last_id = -1;
    for (const MultiRow& m : r.multis) {
        if (!subs.count(m.slot)) return bad("a multi-span of no subtree plan");
        if (m.slot == last_slot && m.id <= last_id) return bad("multi-span ids out of order");
        last_slot = m.slot, last_id = m.id;
        std::vector<int64_t> per = numbers(m.per_type);
        RQ_TRY(subs[m.slot]->plan.restore_multispan(m.id, per));
    }
    for (const JobRow& j : r.jobs) {
        if (rec && j.kind == "alloc") rec->allocations[j.job] = j.span;
        else if (rec && j.kind == "resv") rec->reservations[j.job] = j.span;
        else if (rec && j.kind == "x") rec->x_spans[j.job] = j.span;
        else if (j.kind.size() > 1 && j.kind[0] == 's' && subs.count(std::strtoll(j.kind.c_str() + 1, nullptr, 10)))
            subs[std::strtoll(j.kind.c_str() + 1, nullptr, 10)]->job2span[j.job] = j.span;
        else return bad("a job record of unknown kind " + j.kind);
    }
    return ok_status();
}

Status restore_jobs(Database& db, Session& s, uint64_t& sum) {
    auto jobs = db.prepare("SELECT id, state, scheduled_at, jobspec, overhead, digest FROM job ORDER BY id");
    if (!jobs) return jobs.error();
    Status status;
    while (jobs->step(status)) {
        int64_t id = jobs->integer(0);
        std::string state = jobs->text(1), spec = jobs->text(3);
        double overhead = jobs->real(4);
        uint64_t d = job_digest(id, state, jobs->integer(2), spec, overhead);
        if (d != static_cast<uint64_t>(jobs->integer(5)))
            return corrupt_rows(db, "job " + std::to_string(id) + " does not match its checksum");
        sum += d;
        JobRecord& j = s.jobs[id];
        j.id = id;
        j.state = state == "allocated" ? JobState::kAllocated : state == "reserved" ? JobState::kReserved : JobState::kCanceled;
        j.scheduled_at = jobs->integer(2);
        if (!spec.empty()) j.jobspec_path = s.share_path(spec);
        j.overhead = overhead;
    }
    return status;
}

}  // namespace

Status restore_rows(Database& db, Session& s, uint64_t digest) {
    uint64_t sum = 0;
    auto rows = read_vertex_rows(db, sum);
    if (!rows) return rows.error();
    RQ_TRY(restore_jobs(db, s, sum));
    if (sum != digest) return corrupt_rows(db, "the rows do not match their checksum");
    // A vertex without a row is as loaded, but up: loaded down and set up
    // since has no row.
    ResourceGraph& g = *s.graph;
    for (VertexId v = 0; v < g.num_vertices(); ++v)
        if (!g.is_up(v) && !rows->count(v)) g.set_up(v, true);
    for (auto& [v, r] : *rows) RQ_TRY(apply(s, r, db.path()));
    return ok_status();
}

}  // namespace rq::state
