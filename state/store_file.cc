#include "state/store_file.h"

#include "state/digest.h"
#include "state/rows.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace rq::state {

namespace {

const char* kSchema = R"(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS source(id INTEGER PRIMARY KEY CHECK (id = 0), content BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS blob(id INTEGER PRIMARY KEY, content BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS journal(seq INTEGER PRIMARY KEY, line TEXT NOT NULL, timing TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS journal_input(seq INTEGER NOT NULL, ord INTEGER NOT NULL, path TEXT NOT NULL,
                                         blob INTEGER NOT NULL, PRIMARY KEY (seq, ord));
)";

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (auto& i : items) out += (out.empty() ? "" : ",") + i;
    return out;
}

std::string join_lines(const std::vector<std::string>& items) {
    std::string out;
    for (auto& i : items) out += (out.empty() ? "" : "\n") + i;
    return out;
}

std::vector<std::string> split(const std::string& text, char separator = ',') {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, separator);) out.push_back(item);
    return out;
}

// The option keys of the meta table (written by a whole save only).
const char* const kOptionKeys[] = {"load_format",   "load_file",   "load_allowlist", "load_local_machine",
                                   "pool_resources", "match_subsystems", "subsystems",  "match_policy",
                                   "traverser",     "match_format", "prune_filters",  "queue_policy",
                                   "queue_depth",   "reservation_depth", "queues_file"};

uint64_t options_digest(std::map<std::string, std::string>& meta) {
    Digest d;
    for (const char* key : kOptionKeys) d.add(key).add(meta[key]);
    return d.value();
}

uint64_t chain_blob(uint64_t h, int64_t id, std::string_view content) {
    return Digest(h).add_number(static_cast<uint64_t>(id)).add(content).value();
}

uint64_t chain_entry(uint64_t h, int64_t seq, const Entry& e) {
    Digest d(h);
    d.add_number(static_cast<uint64_t>(seq)).add(e.line).add(e.timing.text()).add_number(e.inputs.size());
    for (const Input& in : e.inputs) d.add(in.path).add_number(static_cast<uint64_t>(in.blob));
    return d.value();
}

// Extends `mark`'s digests over the journal's blobs and entries after it.
Mark extended(const Mark& mark, const Journal& journal) {
    Mark next = mark;
    for (size_t b = mark.blobs; b < journal.blob_count(); ++b)
        next.blob_digest = chain_blob(next.blob_digest, static_cast<int64_t>(b), journal.blob(static_cast<int64_t>(b)));
    for (size_t i = mark.entries; i < journal.entries.size(); ++i)
        next.journal_digest = chain_entry(next.journal_digest, static_cast<int64_t>(i), journal.entries[i]);
    next.entries = journal.entries.size();
    next.blobs = journal.blob_count();
    return next;
}

std::map<std::string, std::string> meta_of(const Session& s, const Journal& journal, const std::string& session_id) {
    const Options& o = s.options;
    return {
        {"schema", std::to_string(kSchemaVersion)},
        {"session", session_id},
        {"journal_length", std::to_string(journal.entries.size())},
        {"blob_count", std::to_string(journal.blob_count())},
        {"next_jobid", std::to_string(s.next_jobid)},
        {"nodes_up", std::to_string(s.graph ? s.graph->nodes_up : 0)},
        {"writer_left_out", s.writer && s.writer->left_out() ? "1" : "0"},
        {"match_time", Timing{s.min_match_time, s.max_match_time, s.total_match_time, s.timed_matches, {}}.text()},
        {"load_format", o.load_format},
        {"load_file", o.load_file},
        {"load_allowlist", o.load_allowlist},
        {"load_local_machine", o.load_local_machine ? "1" : "0"},
        // --resource NAME=DEF, one a line: a definition may hold commas.
        {"pool_resources", join_lines(o.pool_resources)},
        {"match_subsystems", o.match_subsystems},
        {"subsystems", join(o.subsystems)},
        {"match_policy", o.match_policy},
        {"traverser", o.traverser},
        {"match_format", o.match_format},
        {"prune_filters", o.prune_filters},
        // the simulated queue, made by its first command with these
        {"queue_policy", o.queue_policy},
        {"queue_depth", std::to_string(o.queue_depth)},
        {"reservation_depth", std::to_string(o.reservation_depth)},
        {"queues_file", o.queues_file},
    };
}

Status write_meta(Database& db, const std::map<std::string, std::string>& meta) {
    auto stmt = db.cached("INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)");
    if (!stmt) return stmt.error();
    for (auto& [k, v] : meta) RQ_TRY((*stmt)->bind(1, k).bind(2, v).run());
    return ok_status();
}

// Entries [from, end) and blobs [from_blob, end).
Status write_entries(Database& db, const Journal& journal, size_t from, size_t from_blob) {
    auto blob_ = db.cached("INSERT INTO blob(id, content) VALUES (?1, ?2)");
    auto entry_ = db.cached("INSERT INTO journal(seq, line, timing) VALUES (?1, ?2, ?3)");
    auto input_ = db.cached("INSERT INTO journal_input(seq, ord, path, blob) VALUES (?1, ?2, ?3, ?4)");
    if (!blob_) return blob_.error();
    if (!entry_) return entry_.error();
    if (!input_) return input_.error();
    Statement *blob = *blob_, *entry = *entry_, *input = *input_;
    for (size_t b = from_blob; b < journal.blob_count(); ++b)
        RQ_TRY(blob->bind(1, static_cast<int64_t>(b)).bind_blob(2, journal.blob(static_cast<int64_t>(b))).run());
    for (size_t i = from; i < journal.entries.size(); ++i) {
        const Entry& e = journal.entries[i];
        RQ_TRY(entry->bind(1, static_cast<int64_t>(i)).bind(2, e.line).bind(3, e.timing.text()).run());
        for (size_t k = 0; k < e.inputs.size(); ++k)
            RQ_TRY(input->bind(1, static_cast<int64_t>(i)).bind(2, static_cast<int64_t>(k))
                       .bind(3, e.inputs[k].path).bind(4, e.inputs[k].blob).run());
    }
    return ok_status();
}

Result<std::map<std::string, std::string>> read_meta(Database& db) {
    auto cached = db.cached("SELECT key, value FROM meta");
    if (!cached) return cached.error();
    Statement* stmt = *cached;
    std::map<std::string, std::string> meta;
    Status status;
    while (stmt->step(status)) meta[stmt->text(0)] = stmt->text(1);
    if (!status) return status.error();
    return meta;
}

Error corrupt(const Database& db, const std::string& what) {
    return make_error(Errc::kInvalid, db.path() + ": corrupt resource-query state file: " + printable(what));
}

}  // namespace

Status open_existing(Database& db, const std::string& path, bool immutable) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return make_error(Errc::kNotFound, path + ": cannot open the state file");
    char header[20] = {};
    file.read(header, sizeof header);
    if (file.gcount() != 20 || std::memcmp(header, "SQLite format 3", 16) != 0)
        return make_error(Errc::kInvalid, path + ": not a resource-query state file (no SQLite header)");
    // Bytes 18 and 19 are 2 in a database in WAL mode: its latest commits
    // may live only in PATH-wal until the writer's session ends.
    const bool wal_mode = header[18] == 2;
    const bool has_wal = std::filesystem::exists(path + "-wal");  // before SQLite creates one
    RQ_TRY(immutable ? db.open_immutable(path) : db.open(path, false));
    auto check = db.prepare("PRAGMA quick_check");
    if (!check) return check.error();
    Status status;
    // quick_check answers "ok" or one row per problem: the first few, on one line.
    std::string problems;
    for (int rows = 0; rows < 3 && check->step(status); ++rows)
        if (check->text(0) != "ok") problems += (problems.empty() ? "" : "; ") + check->text(0);
    if (!status) return status.error();
    for (char& c : problems)
        if (c == '\n' || c == '\r') c = ' ';
    if (!problems.empty()) return corrupt(db, problems);
    auto ours = holds_session(db);
    if (!ours) return ours.error();
    if (!*ours && wal_mode && !has_wal)
        return make_error(Errc::kInvalid, path + ": its write-ahead log " + path +
                                              "-wal is missing, and the session is in it (copy the two files "
                                              "together, or after the session that wrote them ended)");
    if (!*ours) return make_error(Errc::kInvalid, path + ": not a resource-query state file (an empty or foreign SQLite database)");
    return ok_status();
}

Result<bool> holds_session(Database& db) {
    auto app = db.prepare("PRAGMA application_id");
    if (!app) return app.error();
    Status status;
    int64_t id = app->step(status) ? app->integer(0) : 0;
    if (!status) return status.error();
    auto version = db.prepare("PRAGMA user_version");
    if (!version) return version.error();
    int64_t v = version->step(status) ? version->integer(0) : 0;
    if (!status) return status.error();
    if (id == 0 && v == 0) return false;
    if (id != kApplicationId)
        return make_error(Errc::kInvalid, db.path() + ": not a resource-query state file (foreign SQLite database)");
    if (v != kSchemaVersion)
        return make_error(Errc::kInvalid, db.path() + ": unsupported state schema version " + std::to_string(v) +
                                              " (this resource-query reads version " + std::to_string(kSchemaVersion) +
                                              "; resume it with the resource-query that saved it)");
    return true;
}

Result<Mark> write_whole(Database& db, const Session& s, const std::string& source, const Journal& journal,
                         const std::string& session_id, bool rows_exact, bool journal_complete) {
    auto ours = holds_session(db);
    if (!ours) return ours.error();
    auto tables = db.prepare("SELECT count(*) FROM sqlite_master");
    if (!tables) return tables.error();
    Status status;
    int64_t objects = tables->step(status) ? tables->integer(0) : 0;
    if (!status) return status.error();
    if (!*ours && objects != 0)
        return make_error(Errc::kInvalid, db.path() + ": a foreign SQLite database; not overwritten");
    Transaction tx(db);
    RQ_TRY(tx.begin());
    RQ_TRY(db.exec(kSchema));
    RQ_TRY(db.exec(kRowSchema));
    RQ_TRY(db.exec(kQueueSchema));
    RQ_TRY(db.exec(kGraphRowSchema));
    RQ_TRY(db.exec("PRAGMA application_id = " + std::to_string(kApplicationId) +
                   "; PRAGMA user_version = " + std::to_string(kSchemaVersion) +
                   "; DELETE FROM meta; DELETE FROM source; DELETE FROM blob; DELETE FROM journal;"
                   " DELETE FROM journal_input;"));
    RQ_TRY(clear_rows(db));
    RQ_TRY(clear_queue_rows(db));
    RQ_TRY(clear_graph_rows(db));
    Mark mark = extended(Mark{session_id}, journal);
    auto meta = meta_of(s, journal, session_id);
    meta["options_digest"] = hex(options_digest(meta));
    meta["source_digest"] = hex(Digest().add(source).value());
    meta["blob_digest"] = hex(mark.blob_digest);
    meta["journal_digest"] = hex(mark.journal_digest);
    std::set<int64_t> all;
    for (auto& [id, job] : s.jobs) all.insert(id);
    auto digest = write_job_rows(db, s, all, 0);
    if (!digest) return digest.error();
    if (rows_exact) {
        Dirty every;
        every.all = true;
        digest = write_vertex_rows(db, s, every, *digest);
        if (!digest) return digest.error();
        digest = write_graph_rows(db, *s.graph, *digest);
        if (!digest) return digest.error();
    }
    QueueDelta queue;
    if (rows_exact) RQ_TRY(write_all_queue_rows(db, s, queue));
    meta["rows_exact"] = rows_exact ? "1" : "0";
    meta["journal_complete"] = journal_complete ? "1" : "0";
    meta["rows_digest"] = hex(*digest);
    RQ_TRY(write_meta(db, meta));
    auto src = db.prepare("INSERT INTO source(id, content) VALUES (0, ?1)");
    if (!src) return src.error();
    RQ_TRY(src->bind_blob(1, source).run());
    RQ_TRY(write_entries(db, journal, 0, 0));
    RQ_TRY(tx.commit());
    queue.apply();
    mark.queue = queue.known;
    return mark;
}

Result<Mark> write_changes(Database& db, const Session& s, const Journal& journal, const Mark& mark,
                           bool rows_exact, const Dirty& dirty) {
    auto meta = read_meta(db);
    if (!meta) return meta.error();
    if ((*meta)["session"] != mark.session || (*meta)["journal_length"] != std::to_string(mark.entries) ||
        (*meta)["blob_count"] != std::to_string(mark.blobs))
        return make_error(Errc::kInvalid, db.path() +
                                              ": does not hold this session as last saved (save it whole first)");
    if ((*meta)["journal_complete"] == "0" && !rows_exact)
        return make_error(Errc::kInvalid, db.path() + ": " + kJournalMissing);
    Transaction tx(db);
    RQ_TRY(tx.begin());
    RQ_TRY(write_entries(db, journal, mark.entries, mark.blobs));
    std::set<int64_t> touched;
    for (size_t i = mark.entries; i < journal.entries.size(); ++i) {
        const Entry e = journal.entries[i];  // a decoded copy (EntryLog)
        touched.insert(e.touched_jobs.begin(), e.touched_jobs.end());
    }
    uint64_t start = std::strtoull((*meta)["rows_digest"].c_str(), nullptr, 16);
    auto digest = write_job_rows(db, s, touched, start);
    if (!digest) return digest.error();
    bool was_exact = (*meta)["rows_exact"] == "1";
    QueueDelta queue;
    if (rows_exact && was_exact) {
        digest = write_vertex_rows(db, s, dirty, *digest);
        if (!digest) return digest.error();
        digest = write_graph_changes(db, *s.graph, dirty.graph, *digest);
        if (!digest) return digest.error();
        RQ_TRY(write_queue_changes(db, s, journal, mark.entries, mark.queue, queue));
    } else if (was_exact) {
        RQ_TRY(clear_queue_rows(db));
        // From now on the journal alone is the state: the vertex rows go.
        for (const char* table : {"vertex", "span", "vertex_job", "subtree", "multispan"})
            RQ_TRY(db.exec(std::string("DELETE FROM ") + table));
        RQ_TRY(clear_graph_rows(db));
        std::set<int64_t> all;
        for (auto& [id, job] : s.jobs) all.insert(id);
        RQ_TRY(db.exec("DELETE FROM job"));
        digest = write_job_rows(db, s, all, 0);
        if (!digest) return digest.error();
    }
    auto now = meta_of(s, journal, mark.session);
    Mark next = extended(mark, journal);
    RQ_TRY(write_meta(db, {{"journal_length", now["journal_length"]},
                           {"blob_count", now["blob_count"]},
                           {"next_jobid", now["next_jobid"]},
                           {"match_time", now["match_time"]},
                           {"nodes_up", now["nodes_up"]},
                           {"writer_left_out", now["writer_left_out"]},
                           {"rows_exact", rows_exact && was_exact ? "1" : "0"},
                           {"rows_digest", hex(*digest)},
                           {"blob_digest", hex(next.blob_digest)},
                           {"journal_digest", hex(next.journal_digest)}}));
    RQ_TRY(tx.commit());
    queue.apply();
    if (queue.known) next.queue = queue.known;
    return next;
}

Result<Snapshot> read_snapshot(Database& db) {
    auto meta_read = read_meta(db);
    if (!meta_read) return meta_read.error();
    auto& meta = *meta_read;
    for (const char* key : {"session", "journal_length", "blob_count", "load_format", "subsystems", "match_policy",
                            "traverser", "match_format", "prune_filters", "match_subsystems", "options_digest",
                            "source_digest", "blob_digest", "journal_digest", "rows_exact", "rows_digest",
                            "next_jobid", "nodes_up", "match_time"})
        if (!meta.count(key)) return corrupt(db, std::string("meta has no ") + key);
    if (meta["options_digest"] != hex(options_digest(meta)))
        return corrupt(db, "the saved options do not match their checksum");
    Snapshot snap;
    Options& o = snap.options;
    o.load_format = meta["load_format"];
    o.load_file = meta["load_file"];
    o.load_allowlist = meta["load_allowlist"];
    o.load_local_machine = meta["load_local_machine"] == "1";
    o.pool_resources = split(meta["pool_resources"], '\n');
    o.match_subsystems = meta["match_subsystems"];
    o.subsystems = split(meta["subsystems"]);
    o.match_policy = meta["match_policy"];
    o.traverser = meta["traverser"];
    o.match_format = meta["match_format"];
    o.prune_filters = meta["prune_filters"];
    // Absent from files saved before the queue settings were kept.
    if (meta.count("queue_policy")) o.queue_policy = meta["queue_policy"];
    if (meta.count("queue_depth")) o.queue_depth = std::strtoll(meta["queue_depth"].c_str(), nullptr, 10);
    if (meta.count("reservation_depth"))
        o.reservation_depth = std::strtoll(meta["reservation_depth"].c_str(), nullptr, 10);
    if (meta.count("queues_file")) o.queues_file = meta["queues_file"];
    snap.rows_exact = meta["rows_exact"] == "1";
    snap.journal_complete = !meta.count("journal_complete") || meta["journal_complete"] != "0";
    snap.rows_digest = std::strtoull(meta["rows_digest"].c_str(), nullptr, 16);
    snap.next_jobid = std::strtoll(meta["next_jobid"].c_str(), nullptr, 10);
    snap.nodes_up = std::strtoll(meta["nodes_up"].c_str(), nullptr, 10);
    snap.writer_left_out = meta["writer_left_out"] == "1";
    auto match_time = parse_timing(meta["match_time"]);
    if (!match_time) return corrupt(db, "meta match_time: " + match_time.message());
    snap.match_time = *match_time;
    snap.mark.session = meta["session"];
    snap.mark.entries = std::strtoull(meta["journal_length"].c_str(), nullptr, 10);
    snap.mark.blobs = std::strtoull(meta["blob_count"].c_str(), nullptr, 10);

    Status status;
    auto src = db.prepare("SELECT content FROM source WHERE id = 0");
    if (!src) return src.error();
    if (!src->step(status)) return status ? corrupt(db, "no source") : status.error();
    snap.source = src->text(0);
    if (meta["source_digest"] != hex(Digest().add(snap.source).value()))
        return corrupt(db, "the saved resource description does not match its checksum");

    auto blobs = db.prepare("SELECT id, content FROM blob ORDER BY id");
    if (!blobs) return blobs.error();
    while (blobs->step(status)) {
        if (blobs->integer(0) != static_cast<int64_t>(snap.journal.blob_count())) return corrupt(db, "blob ids");
        snap.journal.add_blob(blobs->text(1));
        if (snap.journal.blob_count() != static_cast<size_t>(blobs->integer(0)) + 1)
            return corrupt(db, "duplicate blob");
    }
    if (!status) return status.error();

    auto entries = db.prepare("SELECT seq, line, timing FROM journal ORDER BY seq");
    if (!entries) return entries.error();
    while (entries->step(status)) {
        if (entries->integer(0) != static_cast<int64_t>(snap.journal.entries.size()))
            return corrupt(db, "journal sequence");
        auto timing = parse_timing(entries->text(2));
        if (!timing) return corrupt(db, "journal entry " + std::to_string(entries->integer(0)) + ": " + timing.message());
        snap.journal.entries.push_back(Entry{entries->text(1), {}, std::move(*timing), {}});
    }
    if (!status) return status.error();

    auto inputs = db.prepare("SELECT seq, path, blob FROM journal_input ORDER BY seq, ord");
    if (!inputs) return inputs.error();
    while (inputs->step(status)) {
        int64_t seq = inputs->integer(0), blob = inputs->integer(2);
        if (seq < 0 || seq >= static_cast<int64_t>(snap.journal.entries.size()) ||
            blob < kUnreadable || blob >= static_cast<int64_t>(snap.journal.blob_count()))
            return corrupt(db, "journal input " + std::to_string(seq));
        snap.journal.entries.add_input(static_cast<size_t>(seq), Input{inputs->text(1), blob});
    }
    if (!status) return status.error();
    if (snap.journal.entries.size() != snap.mark.entries || snap.journal.blob_count() != snap.mark.blobs)
        return corrupt(db, "journal length does not match meta");
    Mark checked = extended(Mark{snap.mark.session}, snap.journal);
    if (meta["blob_digest"] != hex(checked.blob_digest))
        return corrupt(db, "the saved input files do not match their checksum");
    if (meta["journal_digest"] != hex(checked.journal_digest))
        return corrupt(db, "the journal does not match its checksum");
    snap.mark = checked;
    return snap;
}

// Damaged rows are quoted in the message; a damaged byte may be a newline
// or another control character, which is written as \xHH so the error
// stays one line and prints safely on a terminal.
std::string printable(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (unsigned char c : text) {
        if (c >= 0x20 && c != 0x7f) {
            out += static_cast<char>(c);
            continue;
        }
        static const char digits[] = "0123456789abcdef";
        out += "\\x";
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

}  // namespace rq::state
