#include "state/queue_rows.h"

#include <cstdlib>
#include <set>

#include "pools/request.h"
#include "queue/queue_set.h"
#include "session/command_words.h"
#include "state/digest.h"
#include "state/row_types.h"

namespace rq::state {

const char* const kQueueSchema = R"(
CREATE TABLE IF NOT EXISTS queue_state(id INTEGER PRIMARY KEY CHECK (id = 0), now INTEGER NOT NULL,
                                       next_seq INTEGER NOT NULL, passes INTEGER NOT NULL,
                                       pass_due INTEGER NOT NULL, poll_at INTEGER NOT NULL,
                                       reserved TEXT NOT NULL, config BLOB NOT NULL, digest INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS queue_job(id INTEGER PRIMARY KEY, name BLOB NOT NULL, queue BLOB NOT NULL,
                                     priority INTEGER NOT NULL, submit INTEGER NOT NULL, seq INTEGER NOT NULL,
                                     estimate INTEGER NOT NULL, runtime INTEGER NOT NULL, size INTEGER NOT NULL,
                                     state INTEGER NOT NULL, reserved_at INTEGER NOT NULL, held TEXT NOT NULL,
                                     span_end INTEGER NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL,
                                     reason BLOB NOT NULL, considered_in INTEGER NOT NULL, rm BLOB NOT NULL,
                                     digest INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS queue_source(id INTEGER PRIMARY KEY, text BLOB NOT NULL, digest INTEGER NOT NULL);
)";

namespace {

using rows_detail::corrupt_rows;
using rows_detail::numbers;
using queue::QueueJob;

// Length-prefixed fields: any bytes survive.
struct Fields {
    std::string text;
    Fields& put(const std::string& s) {
        text += std::to_string(s.size()) + ":" + s;
        return *this;
    }
    Fields& put(int64_t n) { return put(std::to_string(n)); }
};

struct FieldReader {
    const std::string& text;
    size_t at = 0;
    bool ok = true;
    std::string next() {
        size_t colon = text.find(':', at);
        if (!ok || colon == std::string::npos || colon == at || colon - at > 9) return ok = false, std::string();
        size_t n = std::strtoull(text.substr(at, colon - at).c_str(), nullptr, 10);
        if (n > text.size() - colon - 1) return ok = false, std::string();
        std::string f = text.substr(colon + 1, n);
        at = colon + 1 + n;
        return f;
    }
    int64_t number() {
        std::string f = next();
        char* end = nullptr;
        long long n = std::strtoll(f.c_str(), &end, 10);
        if (f.empty() || *end != '\0') ok = false;
        return n;
    }
    bool done() const { return ok && at == text.size(); }
};

std::string encode_config(const queue::JqmConfig& c) {
    Fields f;
    f.put(c.poll_interval).put(static_cast<int64_t>(c.queues.size()));
    for (const queue::JqmQueue& q : c.queues) {
        f.put(q.name).put(q.policy).put(q.queue_depth).put(q.reservation_depth);
        f.put(static_cast<int64_t>(q.managers.size()));
        for (const queue::ResourceManager& m : q.managers) {
            f.put(static_cast<int64_t>(m.kind)).put(m.key).put(m.quantity).put(m.default_consumption);
            f.put(static_cast<int64_t>(m.items.size()));
            for (const std::string& item : m.items) f.put(item);
        }
    }
    return f.text;
}

}  // namespace

bool decode_queue_config(const std::string& text, queue::JqmConfig& c) {
    FieldReader r{text};
    c.poll_interval = r.number();
    int64_t queues = r.number();
    if (!r.ok || queues < 0 || queues > 100000 || c.poll_interval < 1) return false;
    for (int64_t i = 0; i < queues && r.ok; ++i) {
        queue::JqmQueue q;
        q.name = r.next();
        q.policy = r.next();
        q.queue_depth = r.number();
        q.reservation_depth = r.number();
        int64_t managers = r.number();
        for (int64_t k = 0; k < managers && r.ok; ++k) {
            queue::ResourceManager m;
            int64_t kind = r.number();
            if (kind < 0 || kind > queue::ResourceManager::kHighlander) return false;
            m.kind = static_cast<queue::ResourceManager::Kind>(kind);
            m.key = r.next();
            m.quantity = r.number();
            m.default_consumption = r.number();
            int64_t items = r.number();
            for (int64_t n = 0; n < items && r.ok; ++n) m.items.push_back(r.next());
            q.managers.push_back(std::move(m));
        }
        c.queues.push_back(std::move(q));
    }
    return r.done();
}

namespace {

std::string encode_numbers(const std::vector<int64_t>& ns) {
    std::string out;
    for (int64_t n : ns) out += std::to_string(n) + " ";
    return out;
}

std::string encode_rm(const std::map<std::string, int64_t>& rm) {
    Fields f;
    for (auto& [k, n] : rm) f.put(k).put(n);
    return f.text;
}

struct JobRow {
    int64_t id, priority, submit, seq, estimate, runtime, size, state, reserved_at, span_end, start, end,
        considered_in;
    std::string name, queue, held, reason, rm;
    static JobRow of(const QueueJob& j) {
        std::vector<int64_t> held(j.held.begin(), j.held.end());
        return JobRow{j.id, j.priority, j.submit, static_cast<int64_t>(j.seq), j.estimate, j.runtime, j.size,
                      static_cast<int64_t>(j.state), j.reserved_at, j.span_end, j.start, j.end,
                      static_cast<int64_t>(j.considered_in), j.name, j.queue, encode_numbers(held), j.reason,
                      encode_rm(j.rm)};
    }
    uint64_t digest() const {
        Digest d;
        d.add("queue_job");
        for (int64_t n : {id, priority, submit, seq, estimate, runtime, size, state, reserved_at, span_end, start, end,
                          considered_in})
            d.add_number(static_cast<uint64_t>(n));
        return d.add(name).add(queue).add(held).add(reason).add(rm).value();
    }
};

uint64_t source_digest(int64_t id, const std::string& text) {
    return Digest().add("queue_source").add_number(static_cast<uint64_t>(id)).add(text).value();
}

struct StateRow {
    int64_t now, next_seq, passes, pass_due, poll_at;
    std::string reserved, config;
    static StateRow of(const queue::Simulator& q) {
        auto c = q.clock();
        return StateRow{c.now, static_cast<int64_t>(c.next_seq), static_cast<int64_t>(c.passes), c.pass_due ? 1 : 0,
                        c.poll_at, encode_numbers(c.reserved), encode_config(q.jqm())};
    }
    uint64_t digest() const {
        Digest d;
        d.add("queue_state");
        for (int64_t n : {now, next_seq, passes, pass_due, poll_at}) d.add_number(static_cast<uint64_t>(n));
        return d.add(reserved).add(config).value();
    }
};

int64_t d64(uint64_t d) { return static_cast<int64_t>(d); }

Status put_job(Database& db, const JobRow& r) {
    auto st = db.cached("INSERT OR REPLACE INTO queue_job VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
                        "?13, ?14, ?15, ?16, ?17, ?18, ?19)");
    if (!st) return st.error();
    return (*st)->bind(1, r.id).bind_blob(2, r.name).bind_blob(3, r.queue).bind(4, r.priority).bind(5, r.submit)
        .bind(6, r.seq).bind(7, r.estimate).bind(8, r.runtime).bind(9, r.size).bind(10, r.state)
        .bind(11, r.reserved_at).bind(12, r.held).bind(13, r.span_end).bind(14, r.start).bind(15, r.end)
        .bind_blob(16, r.reason).bind(17, r.considered_in).bind_blob(18, r.rm).bind(19, d64(r.digest())).run();
}

// The job's source row (its digest), written when the job first appears.
Result<uint64_t> put_source(Database& db, const QueueJob& j) {
    if (!j.source) return make_error(Errc::kInvalid, "queued job " + std::to_string(j.id) + " has no saved source");
    auto st = db.cached("INSERT OR REPLACE INTO queue_source VALUES (?1, ?2, ?3)");
    if (!st) return st.error();
    uint64_t d = source_digest(j.id, *j.source);
    RQ_TRY((*st)->bind(1, j.id).bind_blob(2, *j.source).bind(3, d64(d)).run());
    return d;
}

Result<uint64_t> put_state(Database& db, const queue::Simulator& q) {
    StateRow r = StateRow::of(q);
    auto st = db.cached("INSERT OR REPLACE INTO queue_state VALUES (0, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    if (!st) return st.error();
    RQ_TRY((*st)->bind(1, r.now).bind(2, r.next_seq).bind(3, r.passes).bind(4, r.pass_due).bind(5, r.poll_at)
               .bind(6, r.reserved).bind_blob(7, r.config).bind(8, d64(r.digest())).run());
    return r.digest();
}

// The digest column of `sql`'s one row (0 if none).
Result<uint64_t> one_digest(Database& db, const std::string& sql, int64_t key) {
    auto st = db.cached(sql);
    if (!st) return st.error();
    Status status;
    (*st)->bind(1, key);
    uint64_t d = (*st)->step(status) ? static_cast<uint64_t>((*st)->integer(0)) : 0;
    (*st)->reset();
    if (!status) return status.error();
    return d;
}

Status put_sum(Database& db, uint64_t sum) {
    auto st = db.cached("INSERT OR REPLACE INTO meta(key, value) VALUES ('queue_digest', ?1)");
    if (!st) return st.error();
    return (*st)->bind(1, hex(sum)).run();
}

Result<std::shared_ptr<QueueKnown>> read_known(Database& db) {
    auto known = std::make_shared<QueueKnown>();
    auto st = db.prepare("SELECT id, digest FROM queue_job");
    if (!st) return st.error();
    Status status;
    while (st->step(status)) known->jobs[st->integer(0)] = static_cast<uint64_t>(st->integer(1));
    if (!status) return status.error();
    auto sum = db.prepare("SELECT value FROM meta WHERE key = 'queue_digest'");
    if (!sum) return sum.error();
    if (sum->step(status)) known->sum = std::strtoull(sum->text(0).c_str(), nullptr, 16);
    if (!status) return status.error();
    return known;
}

}  // namespace

void QueueDelta::apply() const {
    if (!known || !any) return;
    for (int64_t id : removed) known->jobs.erase(id);
    for (auto& [id, d] : put) known->jobs[id] = d;
    known->sum = sum;
}

bool is_queue_row_command(const std::string& word) {
    return is_command(word, {"submit", "set-priority", "dequeue", "queue", "time", "advance", "run", "queue-add",
                             "queue-manager", "request", "hwdetect"});
}

bool queue_rows_hold(const Session& s) { return !s.queue || !s.queue->policy().jqm; }

Status clear_queue_rows(Database& db) {
    return db.exec("DELETE FROM queue_state; DELETE FROM queue_job; DELETE FROM queue_source;"
                   " DELETE FROM meta WHERE key = 'queue_digest';");
}

Status write_all_queue_rows(Database& db, const Session& s, QueueDelta& delta) {
    delta = QueueDelta{std::make_shared<QueueKnown>(), {}, {}, 0, true};
    if (!s.queue) return ok_status();
    auto d = put_state(db, *s.queue);
    if (!d) return d.error();
    delta.sum += *d;
    for (auto& [id, job] : s.queue->jobs()) {
        JobRow row = JobRow::of(job);
        RQ_TRY(put_job(db, row));
        auto src = put_source(db, job);
        if (!src) return src.error();
        delta.sum += row.digest() + *src;
        delta.put.emplace_back(id, row.digest());
    }
    return put_sum(db, delta.sum);
}

Status write_queue_changes(Database& db, const Session& s, const Journal& journal, size_t from,
                           const std::shared_ptr<QueueKnown>& known, QueueDelta& delta) {
    bool touched = false;
    for (size_t i = from; i < journal.entries.size() && !touched; ++i) {
        const Entry e = journal.entries[i];
        touched = is_queue_row_command(e.line.substr(0, e.line.find(' ')));
    }
    if (!touched || !s.queue) return ok_status();
    delta = QueueDelta{known, {}, {}, 0, true};
    if (!delta.known) {
        auto read = read_known(db);
        if (!read) return read.error();
        delta.known = *read;
    }
    const QueueKnown& k = *delta.known;
    uint64_t sum = k.sum;
    auto old_state = one_digest(db, "SELECT digest FROM queue_state WHERE id = ?1", 0);
    if (!old_state) return old_state.error();
    auto state = put_state(db, *s.queue);
    if (!state) return state.error();
    sum += *state - *old_state;
    const auto& jobs = s.queue->jobs();
    for (auto& [id, job] : jobs) {
        JobRow row = JobRow::of(job);
        uint64_t d = row.digest();
        auto was = k.jobs.find(id);
        if (was != k.jobs.end() && was->second == d) continue;
        if (was == k.jobs.end()) {
            auto src = put_source(db, job);
            if (!src) return src.error();
            sum += *src;
        } else {
            sum -= was->second;
        }
        RQ_TRY(put_job(db, row));
        sum += d;
        delta.put.emplace_back(id, d);
    }
    auto drop_job = db.cached("DELETE FROM queue_job WHERE id = ?1");
    auto drop_src = db.cached("DELETE FROM queue_source WHERE id = ?1");
    if (!drop_job) return drop_job.error();
    if (!drop_src) return drop_src.error();
    for (auto& [id, d] : k.jobs) {
        if (jobs.count(id)) continue;
        auto src = one_digest(db, "SELECT digest FROM queue_source WHERE id = ?1", id);
        if (!src) return src.error();
        RQ_TRY((*drop_job)->bind(1, id).run());
        RQ_TRY((*drop_src)->bind(1, id).run());
        sum -= d + *src;
        delta.removed.push_back(id);
    }
    delta.sum = sum;
    return put_sum(db, sum);
}

void watch_queue_holds(Session& s, std::function<void(const queue::QueueJob&)> touched) {
    if (s.queue) s.queue->on_hold_change(std::move(touched));
}

}  // namespace rq::state
