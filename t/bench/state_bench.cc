// Save / resume benchmark (docs/state.md; figures in
// docs/performance.md "Saving and resuming"): on a recipe (default the El
// Capitan-sized ../shared/bench/elcap.graphml, 1.3M vertices), after one
// match: `save FILE changes` (the rows one match changed), a whole save
// (the graph rows included), and a resume (-f db: open, read, build the
// graph from its rows, restore the other rows). Also the rows an
// incremental save adds (row counts over every table), and the file's
// size after a whole save.
//
//   build/bin/state_bench [--benchmark_min_time=...]   (RQ_STATE_BENCH_RECIPE=path to change the recipe)
#include <benchmark/benchmark.h>

#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli/command_table.h"
#include "cli/repl.h"
#include "state/session_state.h"
#include "utilities/file.h"

namespace {

namespace fs = std::filesystem;

std::string recipe() {
    const char* env = std::getenv("RQ_STATE_BENCH_RECIPE");
    return env ? env : std::string(RQ_SOURCE_DIR) + "/../shared/bench/elcap.graphml";
}

std::string jobspec() { return std::string(RQ_SOURCE_DIR) + "/t/data/jobspecs/whole-node.yaml"; }

void quiet(rq::Session& s, const std::string& line) {
    std::ostringstream sink;
    auto* o = std::cout.rdbuf(sink.rdbuf());
    rq::run_command_line(s, line);
    std::cout.rdbuf(o);
}

const std::string kFile = (fs::temp_directory_path() / "rq_state_bench.db").string();

// A fresh file for each benchmark (a file of another schema version, left
// by an older binary, is refused rather than overwritten).
void remove_file(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path + suffix);
}

std::unique_ptr<rq::Session> start(const std::string& path) {
    remove_file(kFile);
    rq::Options o;
    o.load_file = path;
    std::string text;
    if (!rq::read_file(path, text)) return nullptr;
    auto s = std::make_unique<rq::Session>();
    if (!rq::init_session(*s, o, text).ok()) return nullptr;
    rq::state::attach_journal(*s, text);
    return s;
}


// Rows the state file holds, over every table (read on a connection of its
// own): the difference across a save is the rows it added.
int64_t rows_in(const std::string& path) {
    sqlite3* db = nullptr;
    int64_t rows = 0;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        for (const char* table : {"meta", "source", "blob", "journal", "journal_input", "job", "vertex", "span",
                                  "vertex_job", "subtree", "multispan", "graph_type", "graph_subsystem",
                                  "graph_kind", "graph_count", "graph_vertex", "graph_edge", "graph_index"}) {
            std::string sql = std::string("SELECT count(*) FROM ") + table;
            sqlite3_stmt* stmt = nullptr;
            if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
                rows += sqlite3_column_int64(stmt, 0);
            sqlite3_finalize(stmt);
        }
    }
    sqlite3_close(db);
    return rows;
}

void BM_SaveChangesAfterOneMatch(benchmark::State& state) {
    auto s = start(recipe());
    if (!s) return state.SkipWithError("cannot load the recipe");
    quiet(*s, "match allocate " + jobspec());
    if (!rq::state::save(*s, kFile, false).ok()) return state.SkipWithError("whole save failed");
    int64_t before = rows_in(kFile);
    for (auto _ : state) {
        state.PauseTiming();
        quiet(*s, "match allocate " + jobspec());
        state.ResumeTiming();
        if (!rq::state::save(*s, kFile, true).ok()) return state.SkipWithError("save changes failed");
    }
    state.counters["rows_added_per_save"] =
        static_cast<double>(rows_in(kFile) - before) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_SaveChangesAfterOneMatch)->Unit(benchmark::kMillisecond)->Iterations(20);

void BM_SaveWhole(benchmark::State& state) {
    auto s = start(recipe());
    if (!s) return state.SkipWithError("cannot load the recipe");
    for (int i = 0; i < 10; ++i) quiet(*s, "match allocate " + jobspec());
    for (auto _ : state)
        if (!rq::state::save(*s, kFile, false).ok()) return state.SkipWithError("whole save failed");
    s.reset();  // closes the file: the write-ahead log folds back in
    state.counters["file_MB"] = static_cast<double>(fs::file_size(kFile)) / 1e6;
}
BENCHMARK(BM_SaveWhole)->Unit(benchmark::kMillisecond)->Iterations(5);

void BM_Resume(benchmark::State& state) {
    {
        auto s = start(recipe());
        if (!s) return state.SkipWithError("cannot load the recipe");
        for (int i = 0; i < 10; ++i) quiet(*s, "match allocate " + jobspec());
        if (!rq::state::save(*s, kFile, false).ok()) return state.SkipWithError("whole save failed");
    }
    for (auto _ : state) {
        rq::Session s;
        rq::Options o;
        o.load_format = "db";
        o.load_file = kFile;
        if (!rq::state::start_session(s, o, "", rq::repl_front_end()).ok())
            return state.SkipWithError("resume failed");
        state.SetLabel(rq::state::resumed_from_rows(s) ? "from rows" : "journal replay");
    }
}
BENCHMARK(BM_Resume)->Unit(benchmark::kMillisecond)->Iterations(3);

// --state FILE: a state-changing command (a one-core match) with its
// commit, against the same command in a session without --state (on
// conf/medium.graphml: the commit's cost does not depend on the graph).
void BM_MatchCommand(benchmark::State& state) {
    bool with_state = state.range(0) != 0;
    std::string path = std::string(RQ_SOURCE_DIR) + "/conf/medium.graphml";
    std::string text;
    if (!rq::read_file(path, text)) return state.SkipWithError("cannot read conf/medium.graphml");
    std::string live = (fs::temp_directory_path() / "rq_state_bench_live.db").string();
    remove_file(live);
    rq::Session s;
    rq::Options o;
    o.load_file = path;
    if (with_state) o.state_file = live;
    rq::Status started =
        with_state ? rq::state::start_session(s, o, text, rq::repl_front_end()) : rq::init_session(s, o, text);
    if (!started.ok()) return state.SkipWithError(started.message().c_str());
    if (!with_state) rq::state::attach_journal(s, text);
    std::string line = "match allocate " + std::string(RQ_SOURCE_DIR) + "/t/data/jobspecs/core.yaml";
    for (auto _ : state) quiet(s, line);
    state.SetLabel(with_state ? "--state (WAL, synchronous=FULL)" : "no --state");
}
BENCHMARK(BM_MatchCommand)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond)->Iterations(500);

}  // namespace

BENCHMARK_MAIN();
