// Randomized resume test (docs/state.md "How a resumed
// session stays exact"): one random stream of
// commands (match, reserve, update, partial-cancel, cancel, attach, remove,
// set-status, set-property, the simulated queue's submit, set-priority,
// dequeue, advance, run, queue and time, and read-only queries) runs once uninterrupted;
// a second run of the same stream saves at random points, alternately whole
// and changes-only, and from time to time drops its session and resumes a
// fresh one from the file. Every command of the second run must print what
// the uninterrupted run printed (match times masked: they are measured),
// and right after a resume `list` and `stat` print exactly what the saved
// session printed, measured times included, and every vertex holds the
// same jobspec labels (half the jobspecs carry labels; find, allocated and
// available clear them). The rows-only streams leave
// out the queue unless they are queue-and-rows streams (attach and remove
// stay in): every resume of theirs builds the graph from the state file's
// graph rows and restores the rest from rows (not the journal); the file
// says rows_exact=1 at every save, the restored schedule store must
// describe() exactly as the saved session's, the restored queue hold the
// same jobs, and the graph write the same -g output (every format) and
// hold the same by-path, by-type and by-rank indexes; every incremental
// save must leave the file with exactly the rows a whole save writes. The
// queue-and-rows streams add pool requests, queued pool requests and
// queues with their own policies (multi-queue passes).
#include "state/session_state.h"
#include "state/state_test_util.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <random>
#include <regex>
#include <sstream>

#include "cli/command_table.h"
#include "cli/repl.h"
#include "resource/graph_export.h"
#include "state/sqlite_db.h"
#include "traversers/dynamic_world.h"
#include "utilities/sanitized.h"

namespace rq::state {
namespace {

namespace fs = std::filesystem;
using rq::testing::JgfBuilder;

using testing::run;

// Match times are measured, so they differ between two runs.
std::string mask_times(const std::string& text) {
    static const std::regex job_line(R"((INFO: \d+, \w+, -?\d+, [^,]*, )\S+)");
    static const std::regex match_time(R"((Match Time: )\S+)");
    return std::regex_replace(std::regex_replace(text, job_line, "$1T"), match_time, "$1T");
}

void write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

// The graph as every -g format writes it, and its by-path index and by-type
// and by-rank lists as the matcher reads them.
std::string graph_text(const ResourceGraph& g) {
    std::ostringstream out;
    write_jgf(g, out);
    write_graphml(g, out);
    write_dot(g, out);
    out << g.num_vertices() << " " << g.num_edges() << " " << g.edge_capacity() << " " << g.distinct_names() << " "
        << g.by_path().key_count() << "\n";
    for (VertexId v = 0; v < g.num_vertices(); ++v)
        for (SubsystemId s = 0; s < g.subsystems().size(); ++s)
            if (g.has_path(v, s)) {
                out << v << " " << s << ":";
                for (VertexId u : g.at_path(g.path(v, s))) out << " " << u;
                out << "\n";
            }
    for (TypeId t = 0; t < g.types().size(); ++t) out << g.types().name(t) << " " << g.by_type(t).size() << "\n";
    for (auto& [rank, vs] : g.by_rank()) out << rank << " " << vs.size() << "\n";
    return out.str();
}

std::string meta(const std::string& file, const std::string& key) {
    Database db;
    if (!db.open(file, false).ok()) return "cannot open";
    auto q = db.prepare("SELECT value FROM meta WHERE key = '" + key + "'");
    Status status;
    return q && q->step(status) ? q->text(0) : std::string("none");
}

// `labelled`: the node and core requests carry labels, which the match
// stores on the vertices it walks and find, allocated and available clear.
std::string jobspec(int nodes, int cores, bool exclusive_node, int64_t duration, bool labelled = false) {
    std::ostringstream y;
    y << "version: 1\nresources:\n  - type: node\n    count: " << nodes << "\n"
      << (exclusive_node ? "    exclusive: true\n" : "") << (labelled ? "    label: n" + std::to_string(nodes) + "\n" : "")
      << "    with:\n      - type: slot\n        count: 1\n        label: default\n"
      << "        with:\n          - type: core\n            count: " << cores << "\n"
      << (labelled ? "            label: c" + std::to_string(cores) + "\n" : "")
      << "tasks:\n  - command: [ \"app\" ]\n    slot: default\n    count:\n      per_slot: 1\n"
      << "attributes:\n  system:\n    duration: " << duration << "\n";
    return y.str();
}

struct Config {
    const char* policy;
    unsigned seed;
    int operations;
    // Only commands whose effects the rows hold (no queue command; attach
    // and remove included): every resume then builds the graph from its
    // rows and restores the rest from rows, not the journal.
    bool rows_only = false;
    // With rows_only: the simulated queue and pool requests too (their
    // rows, state/queue_rows.h).
    bool queue_rows = false;
};

class StateRandomBase : public ::testing::Test {
protected:
    virtual const char* policy() const { return "first"; }
    virtual unsigned seed() const { return 0; }
    virtual bool rows_only() const { return false; }
    virtual bool queue_rows() const { return false; }
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("rq_state_test_" + std::to_string(::getpid()) + "_" +
                                            std::to_string(seed()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);

        machine_ = rq::testing::machine_jgf(0, 8);
        write(dir_ / "machine.json", machine_);
        for (int i = 0; i < 6; ++i)
            write(spec(i), jobspec(1 + i % 2, 1 + i % 3, i == 4, 100 + 700 * i, i % 2 == 1));
    }
    void TearDown() override { fs::remove_all(dir_); }

    fs::path spec(int i) const { return dir_ / ("job" + std::to_string(i) + ".yaml"); }

    Options options() const { return testing::jgf_machine_options(dir_, policy()); }
    std::unique_ptr<Session> fresh() const { return testing::fresh_session(options(), machine_); }

    // The next random command, chosen from the uninterrupted session's
    // state; files it needs are written now.
    std::string next_command(Session& s, int op) {
        auto pick = [&](int64_t n) { return static_cast<int64_t>(rng_() % static_cast<uint64_t>(n)); };
        int64_t dice = pick(100);
        int64_t job = 1 + pick(std::max<int64_t>(1, s.next_jobid - 1));
        std::vector<int64_t> live, allocated_with_r, canceled_with_r;
        for (auto& [id, record] : s.jobs) {
            bool has_r = with_r_.count(id) != 0;
            if (record.state != JobState::kCanceled) live.push_back(id);
            if (has_r && record.state == JobState::kAllocated) allocated_with_r.push_back(id);
            if (has_r && record.state == JobState::kCanceled) canceled_with_r.push_back(id);
        }
        auto one_of = [&](const std::vector<int64_t>& ids) { return ids[static_cast<size_t>(pick(static_cast<int64_t>(ids.size())))]; };
        if (!live.empty() && pick(4) != 0) job = one_of(live);
        std::string node = "/cluster0/node" + std::to_string(pick(10));
        if (pick(100) < 12 && (!rows_only() || queue_rows())) return queue_command(s, pick);
        if (dice < 20) return "match allocate " + spec(static_cast<int>(pick(6))).string();
        if (dice < 32) return "match allocate_orelse_reserve " + spec(static_cast<int>(pick(6))).string();
        if (dice < 34) return "match satisfiability " + spec(static_cast<int>(pick(6))).string();
        if (dice < 50) return "cancel " + std::to_string(job);
        if (dice < 56 && !allocated_with_r.empty()) {
            int64_t id = one_of(allocated_with_r);
            return "partial-cancel " + std::to_string(id) + " rv1exec " + part_of_r(id, op);
        }
        if (dice < 62 && !canceled_with_r.empty())
            return "update " + std::string(pick(2) ? "allocate" : "reserve") + " rv1exec " +
                   r_path(one_of(canceled_with_r)).string() + " " + std::to_string(s.next_jobid) + " " +
                   std::to_string(pick(3) * 500) + " 600";
        if (dice < 66) return attach_command(s, op);
        // Removing by path what a job holds leaves over-committed subtree
        // plans, which only the journal reproduces: rows-only streams
        // remove free nodes (and ranks, whose removal releases the jobs).
        if (dice < 67 && (!rows_only() || free_subtree(s, node))) return "remove " + node + " true";
        if (dice < 68) return "remove " + std::to_string(pick(12)) + " false";
        if (dice < 76) return "set-status " + node + (pick(3) ? " up" : " down");
        if (dice < 81) return "set-property " + node + " color=c" + std::to_string(pick(3));
        static const char* queries[] = {"list", "stat", "find status=down", "find sched-now=allocated",
                                        "get-property /cluster0/rack0/node1", "find sched-future=reserved",
                                        "allocated --summary", "available --summary"};
        if (dice < 92) return queries[pick(8)];
        return "info " + std::to_string(job);
    }

    // The simulated queue (queue/): submissions with priorities, priority
    // changes and withdrawals of recent ids, the clock moving, and the
    // queue and time queries (which run the pending pass).
    template <class Pick>
    std::string queue_command(Session& s, Pick& pick) {
        int64_t dice = pick(100);
        int64_t recent = std::max<int64_t>(1, s.next_jobid - 1 - pick(6));
        if (s.queue && pick(4) != 0) {
            auto pending = s.queue->pending();
            if (!pending.empty()) recent = pending[static_cast<size_t>(pick(static_cast<int64_t>(pending.size())))]->id;
        }
        if (queue_rows() && dice < 8) return "submit --duration " + std::to_string(100 + pick(4) * 300) + " request cpus=" + std::to_string(1 + pick(4));
        if (queue_rows() && dice < 14) return "request allocate_orelse_reserve cpus=" + std::to_string(1 + pick(6));
        // Several queues with their own policies (multi-queue passes).
        static const char* policies[] = {"easy", "conservative", "fcfs"};
        if (queue_rows() && dice < 16)
            return "queue-add b" + std::to_string(pick(3)) + " --policy " + policies[pick(3)] + " --queue-depth " +
                   std::to_string(pick(3) * 4);
        if (queue_rows() && dice < 24)
            return "submit --queue b" + std::to_string(pick(3)) + " --priority " + std::to_string(1 + pick(10)) + " " +
                   spec(static_cast<int>(pick(6))).string();
        if (dice < 40)
            return "submit --priority " + std::to_string(1 + pick(10)) + (pick(3) == 0 ? " --runtime 50 " : " ") +
                   spec(static_cast<int>(pick(6))).string();
        if (dice < 50) return "set-priority " + std::to_string(recent) + " " + std::to_string(1 + pick(10));
        if (dice < 56) return "dequeue " + std::to_string(recent);
        if (dice < 80) return "advance " + std::to_string(pick(4) * 250);
        if (dice < 82) return "run";
        return pick(2) ? "queue" : "time";
    }

    static bool free_subtree(const Session& s, const std::string& path) {
        const ResourceGraph& g = *s.graph;
        std::vector<VertexId> stack = g.at_path(path);
        while (!stack.empty()) {
            VertexId v = stack.back();
            stack.pop_back();
            if (const VertexSchedule* r = s.store->find(v); r && (!r->allocations.empty() || !r->reservations.empty()))
                return false;
            for (EdgeId e : g.out(v)) stack.push_back(g.target(e));
        }
        return true;
    }

    std::string attach_command(Session& s, int op) {
        const ResourceGraph& g = *s.graph;
        VertexId root = g.root(0);
        JgfBuilder doc;
        std::string parent = doc.existing(g, root);
        int64_t uniq = 10000 + 100 * op;
        rq::testing::add_node(doc, uniq, parent, std::string(g.path(root, 0)), 100 + op, 100 + op, 0);
        fs::path file = dir_ / ("attach" + std::to_string(op) + ".json");
        write(file, doc.text());
        return "attach " + file.string();
    }

    fs::path r_path(int64_t job) const { return dir_ / ("r" + std::to_string(job) + ".json"); }

    // A file with part of job's R: only the first rank it names.
    std::string part_of_r(int64_t job, int op) {
        std::ifstream in(r_path(job));
        std::stringstream text;
        text << in.rdbuf();
        auto r = rq::testing::Json::parse(text.str(), nullptr, false);
        if (r.is_discarded() || !r.contains("execution")) return r_path(job).string();
        auto& lite = r["execution"]["R_lite"];
        if (!lite.is_array() || lite.empty()) return r_path(job).string();
        auto first = lite[0];
        std::string ranks = first.value("rank", "0");
        first["rank"] = std::to_string(std::strtoll(ranks.c_str(), nullptr, 10));
        lite = rq::testing::Json::array({first});
        fs::path file = dir_ / ("part" + std::to_string(op) + ".json");
        write(file, r.dump());
        return file.string();
    }

    // Keeps the R a match printed, for later update / partial-cancel.
    void keep_r(const Session& s, int64_t before, const std::string& output) {
        if (s.next_jobid == before || output.rfind("{", 0) != 0) return;
        write(r_path(before), output.substr(0, output.find('\n')));
        with_r_.insert(before);
    }

    fs::path dir_;
    std::string machine_;
    std::mt19937 rng_;
    std::set<int64_t> with_r_;  // jobs whose R was kept
};

class StateRandom : public StateRandomBase, public ::testing::WithParamInterface<Config> {
protected:
    const char* policy() const override { return GetParam().policy; }
    unsigned seed() const override { return GetParam().seed; }
    bool rows_only() const override { return GetParam().rows_only; }
    bool queue_rows() const override { return GetParam().queue_rows; }
};

// Everything of the simulated queue a later command can observe, read
// without running its pending pass (`queue` and `time` would).
std::string describe_queue(const Session& s) {
    if (!s.queue) return "no queue";
    auto c = s.queue->clock();
    std::ostringstream out;
    out << c.now << " " << c.next_seq << " " << c.passes << " " << c.pass_due << " " << c.poll_at << " reserved";
    for (int64_t id : c.reserved) out << " " << id;
    out << "\n" << s.queue->policy().name << " queues " << s.queue->jqm().queues.size() << "\n";
    std::map<int64_t, const queue::QueueJob*> jobs;
    for (auto& [id, j] : s.queue->jobs()) jobs[id] = &j;
    for (auto& [id, j] : jobs) {
        out << id << " " << j->name << " " << j->queue << " " << j->priority << " " << j->submit << " " << j->seq << " "
            << j->estimate << " " << j->runtime << " " << j->size << " " << static_cast<int>(j->state) << " "
            << j->reserved_at << " " << j->span_end << " " << j->start << " " << j->end << " " << j->reason << " "
            << j->considered_in << " " << (j->source ? *j->source : "?") << " held";
        for (VertexId v : j->held) out << " " << v;
        out << "\n";
    }
    return out.str();
}

// Every table of rows, with its column count.
const std::pair<const char*, int> kRowTables[] = {{"vertex", 9},    {"subtree", 5},   {"vertex_job", 5},
                                                  {"span", 8},      {"multispan", 6}, {"job", 9},
                                                  {"queue_job", 19}, {"queue_state", 9}, {"queue_source", 3}};

// The rows only one side holds, one per line ("whole: ..." / "changes: ..."),
// so that a failure names what differs rather than printing both tables.
std::string row_difference(const std::set<std::string>& whole, const std::set<std::string>& changes) {
    std::string out;
    for (auto& r : whole)
        if (!changes.count(r)) out += "whole: " + r + "\n";
    for (auto& r : changes)
        if (!whole.count(r)) out += "changes: " + r + "\n";
    return out;
}

std::set<std::string> table_rows(const std::string& path, const char* table, int columns) {
    Database db;
    EXPECT_TRUE(db.open(path, false).ok()) << path;
    auto st = db.prepare(std::string("SELECT * FROM ") + table);
    EXPECT_TRUE(st.ok()) << st.message();
    std::set<std::string> out;
    Status status;
    while (st && st->step(status)) {
        std::string row;
        for (int c = 0; c < columns; ++c) row += st->text(c) + "|";
        out.insert(row);
    }
    return out;
}

size_t queue_starts(const std::vector<std::string>& outputs) {
    size_t n = 0;
    for (const std::string& out : outputs)
        for (size_t at = out.find(" start job="); at != std::string::npos; at = out.find(" start job=", at + 1)) ++n;
    return n;
}

TEST_P(StateRandom, ResumedSessionsPrintWhatTheUninterruptedOnePrints) {
    const Config& config = GetParam();
    const int operations = std::min(config.operations, rq::kSanitizedMaxTestOperations);
    rng_.seed(config.seed);
    auto whole = fresh();
    std::vector<std::string> commands, outputs;
    int label_clears = 0;  // find, allocated or available clearing labels a match stored
    for (int op = 0; op < operations; ++op) {
        commands.push_back(next_command(*whole, op));
        int64_t before = whole->next_jobid;
        const std::string word = commands.back().substr(0, commands.back().find(' '));
        const bool clears = word == "find" || word == "allocated" || word == "available";
        const bool labelled = clears && !testing::labels_of(*whole).empty();
        outputs.push_back(run(*whole, commands.back()));
        keep_r(*whole, before, outputs.back());
        if (labelled && testing::labels_of(*whole).empty()) ++label_clears;
    }

    std::mt19937 cuts(config.seed * 7 + 1);
    const std::string file = (dir_ / "saved.db").string();
    auto session = fresh();
    bool saved_whole = false;
    int saves = 0, resumes = 0, row_resumes = 0;
    // RQ_STATE_TEST_LOCKSTEP (a diagnostic): a second uninterrupted session
    // runs beside and the stores are compared after every command, which
    // names the first command after which a resumed state drifts.
    std::unique_ptr<Session> lockstep;
    if (std::getenv("RQ_STATE_TEST_LOCKSTEP")) lockstep = fresh();
    for (int op = 0; op < operations; ++op) {
        std::string out = run(*session, commands[static_cast<size_t>(op)]);
        if (lockstep) {
            run(*lockstep, commands[static_cast<size_t>(op)]);
            ASSERT_EQ(lockstep->store->describe(), session->store->describe()) << "op " << op << ": " << commands[static_cast<size_t>(op)];
            ASSERT_EQ(describe_queue(*lockstep), describe_queue(*session)) << "op " << op << ": " << commands[static_cast<size_t>(op)];
        }
        ASSERT_EQ(mask_times(outputs[static_cast<size_t>(op)]), mask_times(out))
            << "seed " << config.seed << " op " << op << ": " << commands[static_cast<size_t>(op)];
        if (cuts() % 1000 >= 12) continue;
        // Alternate whole and changes-only saves to the same file.
        bool changes = saved_whole && saves % 2 == 1;
        Status saved = save(*session, file, changes);
        ASSERT_TRUE(saved.ok()) << saved.message();
        saved_whole = true;
        ++saves;
        if (changes && config.rows_only) {
            // Dirty tracking: the incremental file holds exactly the rows
            // a whole save of the same session writes.
            const std::string whole_file = (dir_ / "whole.db").string();
            ASSERT_TRUE(save(*session, whole_file, false).ok());
            for (auto& [table, columns] : kRowTables)
                ASSERT_EQ("", row_difference(table_rows(whole_file, table, columns), table_rows(file, table, columns)))
                    << table << " after op " << op << ": " << commands[static_cast<size_t>(op)];
        }
        if (cuts() % 4 != 0) continue;
        std::string list = run(*session, "list"), stat = run(*session, "stat");
        std::string store = session->store->describe(), labels = testing::labels_of(*session);
        std::string queued = describe_queue(*session);
        int64_t nodes_up = session->graph->nodes_up;
        const std::string graph = graph_text(*session->graph);
        if (config.rows_only) {
            ASSERT_EQ("1", meta(file, "rows_exact")) << "after op " << op;
        }
        session = std::make_unique<Session>();
        Status resumed = testing::resume_file(*session, file);
        ASSERT_TRUE(resumed.ok()) << resumed.message();
        ++resumes;
        ASSERT_EQ(list, run(*session, "list")) << "after op " << op;
        ASSERT_EQ(stat, run(*session, "stat")) << "after op " << op;
        ASSERT_EQ(labels, testing::labels_of(*session)) << "after op " << op;
        if (config.rows_only) {
            ASSERT_TRUE(resumed_from_rows(*session)) << "after op " << op;
            ASSERT_EQ(store, session->store->describe()) << "after op " << op;
            ASSERT_EQ(queued, describe_queue(*session)) << "after op " << op;
            ASSERT_EQ(nodes_up, session->graph->nodes_up) << "after op " << op;
            ASSERT_EQ(graph, graph_text(*session->graph)) << "after op " << op;
            ++row_resumes;
        }
    }
    // The stream must really exercise every kind of change.
    std::map<std::string, int> done;
    for (size_t i = 0; i < commands.size(); ++i) {
        const std::string word = commands[i].substr(0, commands[i].find(' '));
        const std::string& out = outputs[i];
        bool ok = out.find("ERROR") == std::string::npos && out.find("error") == std::string::npos;
        if (word == "match" && out.find("RESOURCES=ALLOCATED") != std::string::npos) ++done["allocated"];
        if (word == "match" && out.find("RESOURCES=RESERVED") != std::string::npos) ++done["reserved"];
        if (word != "match" && ok) ++done[word == "allocated" ? "allocated (query)" : word];
    }
    if (std::getenv("RQ_STATE_TEST_VERBOSE"))
        for (auto& [k, n] : done) std::cerr << k << " " << n << "\n";
    if (std::getenv("RQ_STATE_TEST_VERBOSE")) std::cerr << "label clears " << label_clears << "\n";
    // Every kind of command ran several times (fewer in the prefix the
    // sanitizer build runs: the 3,000 first operations of a 6,000 stream).
    const int least = operations < config.operations ? 3 : 5;
    for (const char* kind : {"allocated", "reserved", "cancel", "partial-cancel", "update", "set-status", "set-property"})
        EXPECT_GE(done[kind], least) << kind;
    for (const char* kind : {"attach", "remove"}) EXPECT_GE(done[kind], least) << kind;
    EXPECT_GE(label_clears, least) << "finds that cleared labels";
    if (config.rows_only && config.queue_rows) {
        for (const char* kind : {"submit", "set-priority", "dequeue", "advance", "queue", "request"})
            EXPECT_GE(done[kind], least) << kind;
        EXPECT_GE(queue_starts(outputs), 5u) << "queued jobs that started";
    }
    if (config.rows_only) {
        EXPECT_GE(row_resumes, 3);
        return;
    }
    for (const char* kind : {"submit", "set-priority", "dequeue", "advance", "queue"})
        EXPECT_GE(done[kind], least) << kind;
    EXPECT_GE(queue_starts(outputs), 5u) << "queued jobs that started";
    EXPECT_GE(saves, 10);
    EXPECT_GE(resumes, 3);
}

INSTANTIATE_TEST_SUITE_P(Policies, StateRandom,
                         ::testing::Values(Config{"high", 11, 10000}, Config{"low", 23, 4000},
                                           Config{"first", 37, 2500}, Config{"high", 41, 10000, true},
                                           Config{"low", 43, 3000, true}, Config{"first", 47, 3000, true},
                                           Config{"high", 53, 6000, true, true}, Config{"first", 59, 3000, true, true}));

TEST(StateFile, RefusesForeignAndCorruptFilesWithOneErrorNamingThem) {
    fs::path dir = fs::temp_directory_path() / ("rq_state_bad_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    write(dir / "text.db", "hello, not a database\n");
    std::string garbage(4096, 'x');
    garbage.replace(0, 16, std::string("SQLite format 3\0", 16));
    write(dir / "garbage.db", garbage);
    for (const char* name : {"text.db", "garbage.db", "missing.db"}) {
        Session s;
        Status resumed = testing::resume_file(s, (dir / name).string());
        ASSERT_FALSE(resumed.ok()) << name;
        EXPECT_NE(resumed.message().find(name), std::string::npos) << resumed.message();
    }
    fs::remove_all(dir);
}

// Damaged state files: every byte flip or truncation of a saved session
// either resumes (the damage hit unused space) or is refused with one
// error naming the file; never a crash or a hang.
// Rows changed behind the session's back (valid SQLite, wrong contents)
// are refused by their checksums, naming the file.
TEST_F(StateRandomBase, EditedRowsAreRefusedByTheirChecksums) {
    rng_.seed(3);
    const std::string file = (dir_ / "saved.db").string();
    {
        auto s = fresh();
        for (int i = 0; i < 6; ++i) run(*s, "match allocate " + spec(i % 3).string());
        run(*s, "set-status /cluster0/node1 down");
        ASSERT_TRUE(save(*s, file, false).ok());
    }
    const char* edits[] = {"UPDATE span SET amount = amount + 1 WHERE job = 2 AND planner = 'own'",
                           "DELETE FROM vertex_job WHERE job = 1 AND kind = 'tag' AND v = 0",
                           "UPDATE vertex SET up = 1 - up",
                           "UPDATE job SET scheduled_at = 5 WHERE id = 2",
                           "DELETE FROM multispan WHERE job = 3"};
    for (const char* edit : edits) {
        const std::string copy = (dir_ / "edited.db").string();
        Status resumed = testing::resume_edited(file, copy, edit);
        ASSERT_FALSE(resumed.ok()) << edit;
        EXPECT_NE(resumed.message().find("edited.db"), std::string::npos) << resumed.message();
        EXPECT_NE(resumed.message().find("checksum"), std::string::npos) << resumed.message();
    }
}

// A damaged byte that turns into a newline inside a quoted row still gives
// one line of error, with the byte written as \x0a.
TEST_F(StateRandomBase, ControlCharactersInDamagedRowsAreEscaped) {
    const std::string file = (dir_ / "saved.db").string();
    {
        auto s = fresh();
        run(*s, "match allocate " + spec(0).string());
        ASSERT_TRUE(save(*s, file, false).ok());
    }
    const std::string copy = (dir_ / "edited.db").string();
    Status resumed = testing::resume_edited(file, copy, "UPDATE meta SET value = 'x' || char(10) || 'y' WHERE key = 'match_time'");
    ASSERT_FALSE(resumed.ok());
    EXPECT_NE(resumed.message().find("edited.db"), std::string::npos) << resumed.message();
    EXPECT_NE(resumed.message().find("x\\x0ay"), std::string::npos) << resumed.message();
    EXPECT_EQ(resumed.message().find('\n'), resumed.message().size() - 1) << resumed.message();
}

class DamagedRows : public StateRandomBase {
protected:
    bool rows_only() const override { return GetParam(); }
    bool GetParam() const { return rows_; }
    bool rows_ = false;

public:
    void damage_and_resume(bool rows);
};

TEST_F(DamagedRows, DamagedJournalFilesAreRefusedOrResumeNeverCrash) { damage_and_resume(false); }
// The same on a file that holds the session as rows (checked row by row).
TEST_F(DamagedRows, DamagedRowFilesAreRefusedOrResumeNeverCrash) { damage_and_resume(true); }

void DamagedRows::damage_and_resume(bool rows) {
    rows_ = rows;
    rng_.seed(5);
    const std::string file = (dir_ / "saved.db").string();
    std::string list;
    {
        auto s = fresh();
        for (int op = 0; op < 60; ++op) {
            int64_t before = s->next_jobid;
            std::string out = run(*s, next_command(*s, op));
            keep_r(*s, before, out);
        }
        if (!rows) {
            // A file the journal holds: removing a node a job holds leaves
            // over-committed subtree plans, which no row holds.
            for (int n = 0; n < 10; ++n) {
                const std::string node = "/cluster0/node" + std::to_string(n);
                if (free_subtree(*s, node)) continue;
                run(*s, "remove " + node + " true");
                break;
            }
        }
        ASSERT_TRUE(save(*s, file, false).ok());
        ASSERT_EQ(rows ? "1" : "0", meta(file, "rows_exact"));
        list = run(*s, "list");
    }  // closed: the write-ahead log is folded back into the file
    std::ifstream in(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_GT(bytes.size(), 4096u);
    std::mt19937 damage(9);
    int refused = 0, resumed = 0;
    const std::string damaged = (dir_ / "damaged.db").string();
    for (int round = 0; round < 300; ++round) {
        std::string copy = bytes;
        size_t at = damage() % copy.size();
        if (round % 3 == 0)
            copy.resize(at);
        else
            for (int k = 0; k < 1 + round % 4; ++k) copy[(at + k * 97) % copy.size()] ^= static_cast<char>(1 + damage() % 255);
        write(damaged, copy);
        Session s;
        Status started = testing::resume_file(s, damaged);
        if (started.ok()) {
            EXPECT_EQ(rows, resumed_from_rows(s)) << "round " << round;
            ++resumed;  // the damage hit unused space: the session must be the saved one
            EXPECT_EQ(list, run(s, "list")) << "round " << round;
            continue;
        }
        ++refused;
        EXPECT_NE(started.message().find("damaged.db"), std::string::npos) << started.message();
        EXPECT_EQ(started.message().find('\n'), started.message().size() - 1) << "one line: " << started.message();
    }
    EXPECT_GT(refused, 100);
    if (std::getenv("RQ_STATE_TEST_VERBOSE")) std::cerr << refused << " refused, " << resumed << " resumed\n";
}

}  // namespace
}  // namespace rq::state
