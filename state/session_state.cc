#include "state/session_state.h"

#include <chrono>
#include <cinttypes>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <random>
#include <unistd.h>
#include <sstream>

#include "session/build.h"
#include "session/command_words.h"
#include "state/input_privacy.h"
#include "state/journal.h"
#include "state/output_capture.h"
#include "state/queue_rows.h"
#include "state/resume_options.h"
#include "state/rows.h"
#include "state/state_path.h"
#include "state/store_file.h"

namespace rq::state {

namespace {

struct SessionState {
    std::string source;  // the -L contents the session started from
    Journal journal;
    std::string session_id;
    std::map<std::string, Mark> marks;  // per save target (canonical path)
    // The writer lock of each file this session writes (state/state_path.h),
    // declared before the databases so that it is released after them.
    std::map<std::string, WriterLock> target_locks;
    WriterLock live_lock;
    // Save targets stay open (WAL): a `save FILE changes` is then one
    // commit, one fsync of the log, and no journal-file dance.
    std::map<std::string, Database> targets;
    // --state FILE, and the front end that started it (to rebuild the
    // session from the file when a commit fails).
    FrontEnd front_end;
    Database live;
    Mark live_mark;
    std::string live_key;
    // Whether the rows hold the whole state (only row commands ran, see
    // state/rows.h), and the vertices changed since the last save to each
    // target (canonical path) and to the --state file.
    bool rows_exact = true;
    // Whether the journal holds every state-changing command since the
    // session began. A session without --state records none until its
    // first save (nothing would write them), unless its options make a
    // JQM queue likely (its state is then in the journal only).
    bool journal_complete = true;
    bool journal_forced = false;
    bool resumed_from_rows = false;
    int64_t unsaved_commands = 0;  // commits that failed (undone)
    std::map<std::string, Dirty> dirty;
    Dirty live_dirty;
    // While a tracked command runs: where the simulated queue's holds and
    // releases go (state/queue_rows.h), and whether it reports them.
    Dirty* queue_dirty = nullptr;
    bool watching_queue = false;
    // recording / replaying the command being run; the files it read
    // wait in `pending` until it is known whether the command failed.
    Entry* recording = nullptr;
    std::vector<std::string> pending;
    bool command_failed = false;
    const Entry* replay = nullptr;
    size_t replay_input = 0;
};

SessionState& state_of(Session& s) { return *static_cast<SessionState*>(s.state.get()); }

std::string key_of(const std::string& path) {
    std::error_code ec;
    auto canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
    return ec ? path : canonical.string();
}

std::string new_session_id() {
    std::random_device rd;
    char buf[40];
    std::snprintf(buf, sizeof buf, "%08x%08x%08x", rd(), rd(), rd());
    return buf;
}

bool is_read_only(const std::string& word) {
    return find_command_word(word) == nullptr ||
           is_command(word, {"get-status", "get-property", "list", "info", "stat", "cat", "help", "quit", "save",
                                  "dump"});
}

// Job ids a command may have created or changed.
std::vector<int64_t> touched_jobs(const Args& args, int64_t before, int64_t after) {
    std::vector<int64_t> ids;
    for (int64_t id = before; id < after; ++id) ids.push_back(id);
    size_t at = 0;
    if (is_command(args[0], {"cancel", "partial-cancel"})) at = 1;
    if (is_command(args[0], {"update"})) at = 4;
    if (at != 0 && at < args.size()) {
        char* end = nullptr;
        long long id = std::strtoll(args[at].c_str(), &end, 10);
        if (end != args[at].c_str() && (id < before || id >= after)) ids.push_back(id);
    }
    return ids;
}

// The match times a command measured: the statistics and the overhead of
// the jobs it touched, so that a replay restores them.
Timing timing_of(const Session& s, const std::vector<int64_t>& jobs) {
    Timing t{s.min_match_time, s.max_match_time, s.total_match_time, s.timed_matches, {}};
    for (int64_t id : jobs) {
        if (auto job = s.jobs.find(id)) t.overheads.emplace_back(id, job->overhead);
    }
    return t;
}

void restore_timing(Session& s, const Timing& t) {
    s.min_match_time = t.min;
    s.max_match_time = t.max;
    s.total_match_time = t.total;
    s.timed_matches = t.timed;
    for (auto& [id, overhead] : t.overheads) s.jobs.set_overhead(id, overhead);
}


// The vertices a row command changes: those of the job it cancels (before
// it runs) or creates or changes (after), or those at the path it sets.
int64_t job_argument(const Args& args) {
    if (args.size() < 2 || !is_command(args[0], {"cancel", "partial-cancel"})) return 0;
    return std::strtoll(args[1].c_str(), nullptr, 10);
}

void dirty_after(const Session& s, const Args& args, const std::vector<int64_t>& jobs, Dirty& out) {
    for (int64_t id : jobs)
        if (s.is_live(id)) add_job_vertices(s, id, out);
    if (args.size() >= 2 && is_command(args[0], {"set-status", "set-property"}))
        for (VertexId v : s.graph->at_path(args[1])) out.vertices.insert(v);
    // A failed update may have taken span ids on vertices it then gave
    // back (the planners' next ids moved); which ones is not known here.
    if (is_command(args[0], {"update"}) && !(args.size() > 4 && s.is_live(std::strtoll(args[4].c_str(), nullptr, 10))))
        out.all = true;
}

// Once the simulated queue exists: the vertices of every job it starts,
// reserves or releases become dirty (their rows change).
void watch_queue(Session& s) {
    SessionState& st = state_of(s);
    if (!s.queue || st.watching_queue) return;
    st.watching_queue = true;
    SessionState* raw = &st;
    Session* session = &s;
    watch_queue_holds(s, [raw, session](const queue::QueueJob& job) {
        if (raw->queue_dirty == nullptr) return;
        if (job.held.empty()) add_job_vertices(*session, job.id, *raw->queue_dirty);  // a pool request's
        for (VertexId v : job.held) {
            raw->queue_dirty->vertices.insert(v);
            raw->queue_dirty->jobs.insert({v, job.id});
        }
    });
}

// A job's R in its row names the properties of its nodes
// (state/job_r.h): set-property changes the rows of the jobs tagged there.
void add_property_jobs(const Session& s, const Args& args, std::vector<int64_t>& jobs) {
    if (args.size() < 2 || !is_command(args[0], {"set-property"})) return;
    for (VertexId v : s.graph->at_path(args[1]))
        if (const VertexSchedule* r = s.store->find(v))
            for (JobId j : r->tags) jobs.push_back(j);
}

// attach and remove: the graph logs what they add and detach; every
// live job's records may change (remove releases what a job held on what
// goes, and both re-install the subtree plans of the ancestors).
bool changes_graph(const Args& args) {
    return is_command(args[0], {"attach", "remove"});
}

void all_live_jobs(const Session& s, Dirty& out) {
    for (auto& [id, job] : s.jobs)
        if (s.is_live(id)) add_job_vertices(s, id, out);
}

void graph_changes_before(Session& s, GraphChangeLog& log, bool tracking, Dirty& touched) {
    if (tracking) all_live_jobs(s, touched);
    s.graph->set_change_log(&log);
}

// Returns false when the rows cannot hold the result: `remove` took
// resources a job still holds, so the subtree plans above them now hold
// more than their totals, and such an over-committed (resized) planner
// answers from its history, which the journal replays and no row holds.
bool graph_changes_after(Session& s, GraphChangeLog& log, bool tracking, Dirty& touched) {
    s.graph->set_change_log(nullptr);
    if (tracking) {
        all_live_jobs(s, touched);
        touched.graph.add(log);
    }
    // Their own rows, and the subtree plans above them (re-installed).
    const ResourceGraph& g = *s.graph;
    std::vector<VertexId> stack(log.vertices.begin(), log.vertices.end());
    for (EdgeId e : log.edges)
        if (e < g.edge_capacity()) stack.push_back(g.source(e)), stack.push_back(g.target(e));
    bool exact = true;
    for (VertexId v : log.vertices)
        if (const VertexSchedule* r = v < g.num_vertices() && g.is_removed(v) ? s.store->find(v) : nullptr)
            exact = exact && r->allocations.empty() && r->reservations.empty();
    if (!tracking) return exact;
    std::set<VertexId> seen;
    while (!stack.empty()) {
        VertexId v = stack.back();
        stack.pop_back();
        if (v >= g.num_vertices() || !seen.insert(v).second) continue;
        touched.vertices.insert(v);
        for (EdgeId e : g.in(v)) stack.push_back(g.source(e));
    }
    return exact;
}

void undo_uncommitted(Session& s, const std::string& why);

// The files the command read enter the journal's blob table, except those
// a failed command cannot have used (docs/state.md, Privacy): their content is not kept.
// Whether the command being run goes into the journal: under --state,
// once the session saved to a file (for `save FILE changes`), or when
// its options ask for a JQM queue.
bool journaling(const SessionState& st) {
    return st.live.is_open() || !st.marks.empty() || st.journal_forced;
}

void settle_inputs(Session& s, SessionState& st, const std::string& word, Entry& entry) {
    if (!journaling(st)) {
        st.pending.clear();
        return;
    }
    size_t next = 0;
    for (Input& in : entry.inputs) {
        if (in.blob != kPending) continue;
        const std::string& text = st.pending[next++];
        bool keep = !st.command_failed || could_have_used(s, word, text);
        in.blob = keep ? st.journal.intern(text) : kUnreadable;
    }
    st.pending.clear();
}

bool run_journaled(Session& s, const Args& args, const std::function<bool()>& run) {
    SessionState& st = state_of(s);
    if (st.replay != nullptr || is_read_only(args[0])) return run();
    Entry entry;
    for (auto& a : args) entry.line += (entry.line.empty() ? "" : " ") + a;
    std::unique_ptr<Capture> capture;
    if (st.live.is_open()) capture = std::make_unique<Capture>(s);
    int64_t before = s.next_jobid;
    const bool row_command = is_row_command(args[0]);
    // Only a file that will get `save FILE changes` (or the --state file)
    // needs to know what changed; without one, tracking would cost a walk
    // per command for nothing.
    const bool tracking = row_command && (st.live.is_open() || !st.dirty.empty());
    Dirty touched;
    if (const int64_t job = job_argument(args); tracking && s.is_live(job)) add_job_vertices(s, job, touched);
    GraphChangeLog graph_log;
    const bool reshapes = changes_graph(args);
    if (reshapes) graph_changes_before(s, graph_log, tracking, touched);
    st.recording = &entry;
    st.command_failed = false;
    st.pending.clear();
    watch_queue(s);
    if (tracking) st.queue_dirty = &touched;
    const bool labels_only = changes_labels_only(args[0]);
    bool quit, unchanged;
    {
        LabelWatch labels(s, tracking || labels_only);  // state/rows.h
        quit = run();
        if (tracking) labels.add_to(touched);
        unchanged = labels_only && !labels.changed();
    }
    st.queue_dirty = nullptr;
    watch_queue(s);
    st.recording = nullptr;
    settle_inputs(s, st, args[0], entry);
    if (unchanged) return quit;  // a find that cleared no label: not journaled
    entry.touched_jobs = touched_jobs(args, before, s.next_jobid);
    if (reshapes && !graph_changes_after(s, graph_log, tracking, touched)) st.rows_exact = false;
    if (row_command) {
        if (tracking) dirty_after(s, args, entry.touched_jobs, touched);
        st.live_dirty.merge(touched);
        if (!queue_rows_hold(s)) st.rows_exact = false;  // a JQM queue: the journal holds it
    } else {
        st.rows_exact = false;
    }
    entry.timing = timing_of(s, entry.touched_jobs);
    if (row_command) add_property_jobs(s, args, entry.touched_jobs);
    // remove releases what jobs held on what went (their R and window in
    // the job table change); attach and remove touch every live job's
    // records already (graph_changes_before).
    if (reshapes)
        for (auto& [id, job] : s.jobs)
            if (s.is_live(id)) entry.touched_jobs.push_back(id);
    if (!journaling(st)) {
        st.journal_complete = false;  // docs/state.md, Memory
        return quit;
    }
    st.journal.entries.push_back(std::move(entry));
    if (st.live.is_open()) {
        auto mark = write_changes(st.live, s, st.journal, st.live_mark, st.rows_exact, st.live_dirty);
        // Either way the session now equals the file: nothing is dirty.
        st.live_dirty.clear();
        if (!mark) {
            capture->discard();
            undo_uncommitted(s, mark.message());
            return quit;  // the other save targets never saw it
        }
        st.live_mark = *mark;
        capture->release();
    }
    if (row_command)
        for (auto& [key, d] : st.dirty) d.merge(touched);
    return quit;
}

bool read_input(SessionState& st, const std::string& path, std::string& text, FileKind kind, std::string* why) {
    if (st.replay != nullptr) {
        if (st.replay_input >= st.replay->inputs.size()) return false;
        const Input& in = st.replay->inputs[st.replay_input++];
        if (in.blob == kUnreadable || in.path != path) return false;
        text = st.journal.blob(in.blob);
        return true;
    }
    bool ok = read_file(path, text, why, kind);
    if (st.recording != nullptr) {
        st.recording->inputs.push_back(Input{path, ok ? kPending : kUnreadable});
        if (ok) st.pending.push_back(text);
    }
    return ok;
}

// Runs the journal's entries again with their output discarded.
void replay(Session& s, const FrontEnd& front_end) {
    SessionState& st = state_of(s);
    std::ostringstream sink;
    std::streambuf* out = std::cout.rdbuf(sink.rdbuf());
    std::streambuf* err = std::cerr.rdbuf(sink.rdbuf());
    for (const Entry& e : st.journal.entries) {
        st.replay = &e;
        st.replay_input = 0;
        front_end.run_line(s, e.line);
        restore_timing(s, e.timing);
        sink.str(std::string());
    }
    st.replay = nullptr;
    std::cout.rdbuf(out);
    std::cerr.rdbuf(err);
}

// The reader's own text of a start-up error, without the frame
// init_session puts around it (a prefix and a second line).
std::string first_line(std::string message) {
    const std::string frame = "resource_query_t: ERROR: ";
    if (message.rfind(frame, 0) == 0) message.erase(0, frame.size());
    return message.substr(0, message.find('\n'));
}

// The session over the graph the rows describe (what init_session does
// over a parsed source).
Status start_from_graph_rows(Session& s, const Options& o, Database& db, uint64_t& graph_sum,
                             const FrontEnd& front_end) {
    auto start = std::chrono::steady_clock::now();
    auto graph = read_graph_rows(db, graph_sum);
    if (!graph) return graph.error();
    s.options = o;
    s.graph = std::move(*graph);
    Status ready = finish_session(s);
    if (!ready) return make_error(Errc::kInvalid, db.path() + ": the saved session does not start: " + first_line(ready.message()));
    if (o.elapse_time) {
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        front_end.print_graph_stats(*s.graph, seconds);
    }
    return ok_status();
}

Status resume(Session& s, const Options& given, const std::string& path, Database& db, const FrontEnd& front_end,
              bool may_read_only = false) {
    RQ_TRY(check_state_path(path));
    bool read_only = false;
    if (may_read_only) {
        auto place = read_only_place(path);
        if (!place) return place.error();
        read_only = *place;
    }
    RQ_TRY(open_existing(db, path, read_only));
    if (read_only)
        std::cerr << "INFO: " << path << ": resumed read-only (its folder cannot be written; save elsewhere)"
                  << std::endl;
    auto snap = read_snapshot(db);
    if (!snap) return snap.error();
    auto resumed = resume_options(given, snap->options, path, !given.state_file.empty());
    if (!resumed) return resumed.error();
    const Options& o = *resumed;
    auto graph_rows = has_graph_rows(db);
    if (!graph_rows) return graph_rows.error();
    const bool from_graph_rows = snap->rows_exact && *graph_rows;
    uint64_t graph_sum = 0;
    // From the graph rows: no parse of the source (nor detection of the
    // machine for -f local / hwloc without -L).
    Status ready = from_graph_rows ? start_from_graph_rows(s, o, db, graph_sum, front_end)
                                   : front_end.init_session(s, o, snap->source);
    if (!ready && from_graph_rows) return ready;
    if (!ready) return make_error(Errc::kInvalid, path + ": the saved session does not start: " + first_line(ready.message()));
    attach_journal(s, snap->source);
    SessionState& st = state_of(s);
    st.journal = std::move(snap->journal);
    st.session_id = snap->mark.session;
    st.marks[key_of(path)] = snap->mark;
    st.dirty[key_of(path)];  // tracked from here on, for `save FILE changes`
    st.rows_exact = snap->rows_exact;
    st.journal_complete = snap->journal_complete;
    if (!snap->rows_exact) {
        replay(s, front_end);
        return ok_status();
    }
    Status restored = restore_rows(db, s, snap->rows_digest - graph_sum);
    if (!restored) return restored.error();
    s.next_jobid = snap->next_jobid;
    RQ_TRY(restore_queue_rows(db, s));
    watch_queue(s);
    s.graph->nodes_up = snap->nodes_up;
    if (s.writer) s.writer->set_left_out(snap->writer_left_out);
    st.resumed_from_rows = true;
    restore_timing(s, snap->match_time);
    return ok_status();
}

// A command ran but the --state file could not take it (a full disk, an
// I/O error): nothing of it may stay. Output printed implies committed
// (docs/state.md, Durability), so its output was
// withheld; here the session is rebuilt from the file, which holds every
// command before it, exactly as a resume would (rows, or the journal
// replayed). Costs one resume; only a failed commit pays it.
void undo_uncommitted(Session& s, const std::string& why) {
    SessionState& st = state_of(s);
    ++st.unsaved_commands;
    std::cerr << "ERROR: --state: " << why << "; the command is undone (not saved, no result)" << std::endl;
    std::ostringstream sink;
    std::streambuf* out = std::cout.rdbuf(sink.rdbuf());
    std::streambuf* err = std::cerr.rdbuf(sink.rdbuf());
    const std::string path = st.live.path();
    Options options = s.options;
    clear_session_content(s);
    st.watching_queue = false;
    Database db;
    Status rebuilt = resume(s, options, path, db, st.front_end);
    st.dirty.erase(st.live_key);  // resume() tracks the file for `save`; it is the --state file
    std::cout.rdbuf(out);
    std::cerr.rdbuf(err);
    if (!rebuilt) {
        // Nothing sound is left to go on with.
        std::cerr << "ERROR: --state: " << path << ": cannot undo the command: " << rebuilt.message() << std::endl;
        std::_Exit(1);
    }
}

Status use_wal(Database& db) {
    // WAL: a commit appends to the log instead of rewriting pages, and
    // synchronous=FULL fsyncs the log at every commit, so an acknowledged
    // command survives a power loss, not only a killed process.
    return db.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;");
}

// Whether `path` holds a saved session. A file that does not exist, is
// empty, or is an SQLite database with nothing in it (a first start killed
// before its first commit) does not.
Result<bool> holds_saved_session(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec) || std::filesystem::file_size(path, ec) == 0) return false;
    Database db;
    Status opened = open_existing(db, path);
    if (opened) return true;
    Database raw;
    RQ_TRY(raw.open(path, false));
    auto ours = holds_session(raw);
    auto objects = raw.prepare("SELECT count(*) FROM sqlite_master");
    Status status;
    if (ours && !*ours && objects && objects->step(status) && objects->integer(0) == 0) return false;
    return opened.error();
}

Status open_state_file(Session& s, const Options& options, const std::string& text, const FrontEnd& front_end) {
    const std::string& path = options.state_file;
    auto exists = holds_saved_session(path);
    if (!exists) return exists.error();
    Database db;
    if (*exists) {
        RQ_TRY(resume(s, options, path, db, front_end));
    } else {
        Status ready = front_end.init_session(s, options, text);
        if (!ready) return ready;
        attach_journal(s, text);
        RQ_TRY(db.open(path, true));
    }
    RQ_TRY(use_wal(db));
    SessionState& st = state_of(s);
    if (!*exists) {
        st.session_id = new_session_id();
        auto mark = write_whole(db, s, st.source, st.journal, st.session_id, st.rows_exact, st.journal_complete);
        if (!mark) return mark.error();
        st.marks[key_of(path)] = *mark;
    }
    st.live_key = key_of(path);
    st.live_mark = st.marks[st.live_key];
    st.live = std::move(db);
    return ok_status();
}

Status start_state_file(Session& s, const Options& options, const std::string& text, const FrontEnd& front_end) {
    const std::string& path = options.state_file;
    // One writer per file, from before it is read until the session ends.
    auto lock = WriterLock::acquire(path);
    if (!lock) return lock.error();
    Status started = open_state_file(s, options, text, front_end);
    if (!started) {
        lock->discard_created();
        return started;
    }
    lock->keep();
    state_of(s).live_lock = std::move(*lock);
    state_of(s).front_end = front_end;
    return ok_status();
}

}  // namespace

bool is_state_request(const Options& options, const std::string& text) {
    return options.load_format == "db" || !options.state_file.empty() ||
           (text.size() >= 16 && std::memcmp(text.data(), "SQLite format 3", 16) == 0);
}

Status start_session(Session& s, const Options& options, const std::string& text, const FrontEnd& front_end) {
    Status started = !options.state_file.empty() ? start_state_file(s, options, text, front_end) : [&] {
        Database db;
        return resume(s, options, options.load_file, db, front_end, true);
    }();
    if (!started && started.message().rfind("resource_query_t", 0) != 0)
        return make_error(started.code(), "resource_query_t: ERROR: " + printable(started.message()) + "\n");
    return started;
}

void attach_journal(Session& s, const std::string& source) {
    if (s.state) return;
    auto st = std::make_shared<SessionState>();
    st->source = source;
    st->session_id = new_session_id();
    st->journal_forced = s.options.queue_policy.rfind("jqm", 0) == 0 || !s.options.queues_file.empty();
    SessionState* raw = st.get();
    s.state = st;
    s.input_reader = [raw](const std::string& path, std::string& text, FileKind kind, std::string* why) {
        return read_input(*raw, path, text, kind, why);
    };
    Session* session = &s;
    s.around_command = [session](const Args& args, const std::function<bool()>& run) {
        return run_journaled(*session, args, run);
    };
}

void keep_journal(Session& s) {
    if (s.state) state_of(s).journal_forced = true;
}

void note_failed_command(Session& s) {
    if (s.state) state_of(s).command_failed = true;
}

int64_t unsaved_commands(const Session& s) {
    return s.state ? static_cast<const SessionState*>(s.state.get())->unsaved_commands : 0;
}

bool resumed_from_rows(const Session& s) {
    return s.state && static_cast<const SessionState*>(s.state.get())->resumed_from_rows;
}

Status save(Session& s, const std::string& path, bool changes_only) {
    if (!s.state) return make_error(Errc::kInvalid, "this session keeps no journal");
    SessionState& st = state_of(s);
    std::string key = key_of(path);
    if (st.live.is_open() && key == st.live_key)
        return make_error(Errc::kInvalid, path + ": is the --state file, which is always current");
    if (changes_only && st.marks.find(key) == st.marks.end())
        return make_error(Errc::kInvalid, path + ": this session was never saved whole there (save it whole first)");
    if (!st.journal_complete && !st.rows_exact)
        return make_error(Errc::kInvalid, path + ": " + kJournalMissing);
    auto target = st.targets.find(key);
    if (target == st.targets.end()) {
        // The file's writer lock, held while the session keeps it open.
        auto lock = WriterLock::acquire(path);
        if (!lock) return lock.error();
        Database db;
        Status opened = changes_only ? open_existing(db, path) : db.open(path, true);
        if (opened) opened = use_wal(db);
        if (!opened) {
            lock->discard_created();
            return opened;
        }
        lock->keep();
        st.target_locks[key] = std::move(*lock);
        target = st.targets.emplace(key, std::move(db)).first;
    }
    Database& db = target->second;
    Result<Mark> mark = make_error(Errc::kInvalid);
    if (changes_only) {
        mark = write_changes(db, s, st.journal, st.marks[key], st.rows_exact, st.dirty[key]);
    } else {
        mark = write_whole(db, s, st.source, st.journal, st.session_id, st.rows_exact, st.journal_complete);
    }
    if (!mark) {
        st.targets.erase(key);
        st.target_locks.erase(key);
        return mark.error();
    }
    st.marks[key] = *mark;
    st.dirty[key].clear();
    return ok_status();
}

}  // namespace rq::state
