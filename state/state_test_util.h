// What the state tests share: running a command with its output captured,
// and a fresh session on a JGF machine written to a test directory.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

// The tests drive sessions through the REPL (cli/ is above state/; only
// tests reach up), and start saved ones with its front end.
#include "cli/command_table.h"
#include "cli/repl.h"
#include "state/session_state.h"
#include "state/sqlite_db.h"

namespace rq::state::testing {

// Runs one command line; returns what it wrote to stdout and stderr.
inline std::string run(Session& s, const std::string& line) {
    std::ostringstream out;
    std::streambuf* o = std::cout.rdbuf(out.rdbuf());
    std::streambuf* e = std::cerr.rdbuf(out.rdbuf());
    run_command_line(s, line);
    std::cout.rdbuf(o);
    std::cerr.rdbuf(e);
    return out.str();
}

// The options of a session on `dir`/machine.json under `policy`.
inline Options jgf_machine_options(const std::filesystem::path& dir, const std::string& policy) {
    Options o;
    o.load_format = "jgf";
    o.load_file = (dir / "machine.json").string();
    o.match_policy = policy;
    o.match_format = "rv1_nosched";
    return o;
}

// A session started from `machine` (the text of machine.json), journaled
// from its first command (state/session_state.h keep_journal).
inline std::unique_ptr<Session> fresh_session(const Options& o, const std::string& machine) {
    auto s = std::make_unique<Session>();
    Status ready = init_session(*s, o, machine);
    EXPECT_TRUE(ready.ok()) << ready.message();
    attach_journal(*s, machine);
    keep_journal(*s);  // the tests save states only the journal holds
    return s;
}

// Every vertex's jobspec labels (JGF "ephemeral"), a line each: not in
// ScheduleStore::describe(), and find clears them.
inline std::string labels_of(const Session& s) {
    std::ostringstream out;
    for (VertexId v = 0; v < s.graph->num_vertices(); ++v)
        if (const VertexSchedule* r = s.store->find(v))
            if (const Labels::Map* m = r->ephemeral.get()) {
                out << v;
                for (auto& [k, val] : *m) out << " " << k << "=" << val;
                out << "\n";
            }
    return out.str();
}

// Starts `s` from the saved state file `file` (-f db -L FILE).
inline Status resume_file(Session& s, const std::string& file) {
    Options o;
    o.load_format = "db";
    o.load_file = file;
    return start_session(s, o, "", repl_front_end());
}

// Copies the state file `file` to `copy`, changes the copy with the SQL
// `edit` (which must change something) and resumes it: what the resume says.
inline Status resume_edited(const std::string& file, const std::string& copy, const std::string& edit) {
    std::filesystem::copy_file(file, copy, std::filesystem::copy_options::overwrite_existing);
    {
        Database db;
        EXPECT_TRUE(db.open(copy, false).ok());
        Status changed = db.exec(edit);
        EXPECT_TRUE(changed.ok()) << edit << ": " << changed.message();
        EXPECT_GT(sqlite3_changes(db.handle()), 0) << edit;
    }
    Session s;
    return resume_file(s, copy);
}

}  // namespace rq::state::testing
