// Resuming from rows: reads every row back, checks each row's digest and
// their sum, and puts them onto the session just loaded from the source.
#include <cinttypes>
#include <cstring>
#include <map>

#include "state/row_types.h"
#include "state/rows.h"

namespace rq::state {

using namespace rows_detail;

namespace {

// Every row of one vertex, read back.
struct Saved {
    VertexRow vertex;
    bool has_vertex = false;
    Rows rows;
};

template <class Row>
Status checked(const Database& db, const Row& row, int64_t stored, uint64_t& sum, const char* table) {
    if (row.digest() != static_cast<uint64_t>(stored))
        return corrupt_rows(db, std::string("a row of ") + table + " (vertex " + std::to_string(row.v) +
                                    ") does not match its checksum");
    sum += row.digest();
    return ok_status();
}

// Reads every vertex row; checks each row's digest, adds them to `sum`.
Result<std::map<int64_t, Saved>> read_vertex_rows(Database& db, uint64_t& sum) {
    std::map<int64_t, Saved> saved;
    Status status;
    auto vs = db.prepare("SELECT v, up, properties, weights, record, own_next, x_next, labels, digest FROM vertex");
    auto subs = db.prepare("SELECT v, slot, next_id, planner_next, digest FROM subtree");
    auto jobs = db.prepare("SELECT v, job, kind, span, digest FROM vertex_job");
    // By id within each planner: a planner's span table takes ids in
    // increasing order (a queue job re-reserved in a later pass holds a
    // newer span than a job with a larger id).
    auto spans = db.prepare("SELECT v, job, planner, id, start, end, amount, digest FROM span ORDER BY v, planner, id");
    auto multis = db.prepare("SELECT v, job, slot, id, per_type, digest FROM multispan ORDER BY v, slot, id");
    for (auto* st : {&vs, &subs, &jobs, &spans, &multis})
        if (!*st) return st->error();
    while (vs->step(status)) {
        VertexRow r{vs->integer(0), vs->integer(1), vs->integer(4), vs->integer(5), vs->integer(6),
                    vs->text(2), vs->text(3), vs->text(7)};
        RQ_TRY(checked(db, r, vs->integer(8), sum, "vertex"));
        Saved& sv = saved[r.v];
        sv.vertex = r;
        sv.has_vertex = true;
    }
    auto owner = [&](int64_t v) -> Saved* {
        auto it = saved.find(v);
        return it == saved.end() ? nullptr : &it->second;
    };
    auto orphan = [&](const char* what) { return corrupt_rows(db, std::string("a ") + what + " of no vertex row"); };
    while (status && subs->step(status)) {
        SubRow r{subs->integer(0), subs->integer(1), subs->integer(2), subs->text(3)};
        RQ_TRY(checked(db, r, subs->integer(4), sum, "subtree"));
        Saved* sv = owner(r.v);
        if (sv == nullptr) return orphan("subtree plan");
        sv->rows.subs.push_back(r);
    }
    while (status && jobs->step(status)) {
        JobRow r{jobs->integer(0), jobs->integer(1), jobs->text(2), jobs->integer(3)};
        RQ_TRY(checked(db, r, jobs->integer(4), sum, "vertex_job"));
        Saved* sv = owner(r.v);
        if (sv == nullptr) return orphan("job record");
        sv->rows.jobs.push_back(r);
    }
    while (status && spans->step(status)) {
        SpanRow r{spans->integer(0), spans->integer(1), spans->text(2), spans->integer(3),
                  spans->integer(4), spans->integer(5), spans->integer(6)};
        RQ_TRY(checked(db, r, spans->integer(7), sum, "span"));
        Saved* sv = owner(r.v);
        if (sv == nullptr) return orphan("span");
        sv->rows.spans.push_back(r);
    }
    while (status && multis->step(status)) {
        MultiRow r{multis->integer(0), multis->integer(1), multis->integer(2), multis->integer(3), multis->text(4)};
        RQ_TRY(checked(db, r, multis->integer(5), sum, "multispan"));
        Saved* sv = owner(r.v);
        if (sv == nullptr) return orphan("multi-span");
        sv->rows.multis.push_back(r);
    }
    if (!status) return status.error();
    return saved;
}

// Puts one vertex's rows back onto the freshly loaded session.
Status apply(Session& s, const Saved& sv, const std::string& where) {
    ResourceGraph& g = *s.graph;
    const VertexRow& r = sv.vertex;
    auto bad = [&](const std::string& what) {
        return make_error(Errc::kInvalid, where + ": vertex " + std::to_string(r.v) + ": " + what);
    };
    if (!sv.has_vertex) return bad("rows without the vertex row");
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
    for (const SubRow& sub : sv.rows.subs) {
        SubtreePlan* sp = sub.slot >= 0 ? s.store->subtree(v, static_cast<size_t>(sub.slot)) : nullptr;
        if (sp == nullptr) return bad("a subtree plan the graph does not have");
        std::vector<int64_t> nexts = numbers(sub.planner_next);
        if (nexts.size() != sp->plan.size()) return bad("a subtree plan of other types");
        sp->plan.restore_next_id(sub.next_id);
        for (size_t i = 0; i < nexts.size(); ++i) sp->plan.planner_to_restore(i).restore_next_id(nexts[i]);
        subs[sub.slot] = sp;
    }
    for (const SpanRow& sp : sv.rows.spans) {
        Planner* p = nullptr;
        if (sp.planner == "own" && rec) p = &rec->plan;
        if (sp.planner == "x" && rec) p = &rec->exclusivity().checker;
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
        // An untouched checker is a fresh one (next id 1): created only if needed.
        if (r.x_next != 1 || rec->exclusivity_if_any() != nullptr) rec->exclusivity().checker.restore_next_id(r.x_next);
        if (!decode_pairs(r.labels, pairs = {})) return bad("bad labels");
        for (auto& [k, val] : pairs) rec->ephemeral[k] = val;
    }
    int64_t last_slot = -1, last_id = -1;
    for (const MultiRow& m : sv.rows.multis) {  // ordered by slot, id
        if (!subs.count(m.slot)) return bad("a multi-span of no subtree plan");
        if (m.slot == last_slot && m.id <= last_id) return bad("multi-span ids out of order");
        last_slot = m.slot, last_id = m.id;
        RQ_TRY(subs[m.slot]->plan.restore_multispan(m.id, numbers(m.per_type)));
    }
    for (const JobRow& j : sv.rows.jobs) {
        int64_t slot = j.kind.size() > 1 && j.kind[0] == 's' ? std::strtoll(j.kind.c_str() + 1, nullptr, 10) : -1;
        if (rec && j.kind == "alloc") rec->allocations[j.job] = j.span;
        else if (rec && j.kind == "resv") rec->reservations[j.job] = j.span;
        else if (rec && j.kind == "x") rec->exclusivity().spans[j.job] = j.span;
        else if (rec && j.kind == "tag") rec->tags.insert(j.job);
        else if (subs.count(slot)) subs[slot]->job2span[j.job] = j.span;
        else return bad("a job record of unknown kind " + j.kind);
    }
    return ok_status();
}

Status restore_jobs(Database& db, Session& s, uint64_t& sum, std::map<int64_t, JobR>& rs) {
    auto jobs = db.prepare("SELECT id, state, scheduled_at, jobspec, overhead, r, start, end, digest FROM job ORDER BY id");
    if (!jobs) return jobs.error();
    Status status;
    while (jobs->step(status)) {
        int64_t id = jobs->integer(0);
        std::string state = jobs->text(1), spec = jobs->text(3);
        double overhead = jobs->real(4);
        JobR r{jobs->text(5), jobs->integer(6), jobs->integer(7)};
        uint64_t d = job_digest(id, state, jobs->integer(2), spec, overhead, r);
        if (d != static_cast<uint64_t>(jobs->integer(8)))
            return corrupt_rows(db, "job " + std::to_string(id) + " does not match its checksum");
        sum += d;
        JobRecord& j = s.jobs[id];
        j.id = id;
        j.state = state == "allocated" ? JobState::kAllocated : state == "reserved" ? JobState::kReserved : JobState::kCanceled;
        j.scheduled_at = jobs->integer(2);
        if (!spec.empty()) j.jobspec_path = s.share_path(spec);
        j.overhead = overhead;
        if (j.state == JobState::kCanceled) s.jobs.cancel(id);  // to the store (docs/state.md, Memory)
        rs[id] = std::move(r);
    }
    return status;
}

}  // namespace

Status restore_rows(Database& db, Session& s, uint64_t digest) {
    uint64_t sum = 0;
    auto rows = read_vertex_rows(db, sum);
    if (!rows) return rows.error();
    std::map<int64_t, JobR> rs;
    RQ_TRY(restore_jobs(db, s, sum, rs));
    if (sum != digest) return corrupt_rows(db, "the rows do not match their checksum");
    // A vertex without a row is as loaded, but up: loaded down and set up
    // since has no row.
    ResourceGraph& g = *s.graph;
    for (VertexId v = 0; v < g.num_vertices(); ++v)
        if (!g.is_up(v) && !rows->count(v)) g.set_up(v, true);
    for (auto& [v, saved] : *rows) RQ_TRY(apply(s, saved, db.path()));
    // Each job's R and window, as saved, must be what the restored
    // records give (state/job_r.h).
    for (auto& [id, r] : rs) {
        JobR now = job_r(s, id);
        if (now.r != r.r || now.start != r.start || now.end != r.end)
            return corrupt_rows(db, "job " + std::to_string(id) + ": its saved R or window is not what its records hold");
    }
    return ok_status();
}

}  // namespace rq::state