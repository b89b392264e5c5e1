// The queue's rows and the job table's R in the state file
// (state/queue_rows.h, state/job_r.h): damaged queue rows are refused
// naming the file and the row; a job row's R is what `allocated` prints.
// (The randomized resume streams with the queue are in
// session_state_test.cc.)
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/command_table.h"
#include "cli/repl.h"
#include "state/session_state.h"
#include "state/state_test_util.h"
#include "state/sqlite_db.h"
#include "traversers/dynamic_world.h"

namespace rq::state {
namespace {

namespace fs = std::filesystem;

using testing::run;

class QueueRowsFile : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("rq_queue_rows_test_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        machine_ = rq::testing::machine_jgf(0, 8);
        std::ofstream(dir_ / "machine.json") << machine_;
        for (int i = 0; i < 6; ++i) {
            std::ofstream y(spec(i));
            y << "version: 1\nresources:\n  - type: node\n    count: " << 1 + i % 2 << "\n"
              << (i == 4 ? "    exclusive: true\n" : "")
              << "    with:\n      - type: slot\n        count: 1\n        label: default\n"
              << "        with:\n          - type: core\n            count: " << 1 + i % 3 << "\n"
              << "tasks:\n  - command: [ \"app\" ]\n    slot: default\n    count:\n      per_slot: 1\n"
              << "attributes:\n  system:\n    duration: " << 100 + 700 * i << "\n";
        }
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path spec(int i) const { return dir_ / ("job" + std::to_string(i) + ".yaml"); }
    Options options() const { return testing::jgf_machine_options(dir_, "first"); }
    std::unique_ptr<Session> fresh() const { return testing::fresh_session(options(), machine_); }
    fs::path dir_;
    std::string machine_;
};

// The queue's rows (state/queue_rows.h) edited behind the session's back,
// valid SQLite each: one error naming the file and the row, never a crash.
TEST_F(QueueRowsFile, EditedQueueRowsAreRefusedNamingTheRow) {
    const std::string file = (dir_ / "saved.db").string();
    {
        auto s = fresh();
        run(*s, "queue-add batch --policy easy");
        for (int i = 0; i < 8; ++i) run(*s, "submit --priority " + std::to_string(1 + i) + " " + spec(i % 6).string());
        run(*s, "submit --duration 300 request cpus=2");
        run(*s, "advance 200");
        ASSERT_TRUE(save(*s, file, false).ok());
        Database db;
        ASSERT_TRUE(db.open(file, false).ok());
        auto exact = db.prepare("SELECT value FROM meta WHERE key = 'rows_exact'");
        Status status;
        ASSERT_TRUE(exact->step(status));
        EXPECT_EQ("1", exact->text(0));
    }
    const std::pair<const char*, const char*> edits[] = {
        {"UPDATE queue_job SET priority = 11 WHERE id = 3", "queue_job row 3"},
        {"UPDATE queue_source SET text = 'x' WHERE id = 2", "queue_source row 2"},
        {"UPDATE queue_state SET now = now + 1", "queue_state"},
        {"DELETE FROM queue_job WHERE id = 4", "checksum"},
        {"DELETE FROM queue_source WHERE id = 5", "queue_job row 5"},
        {"UPDATE meta SET value = '0' WHERE key = 'queue_digest'", "checksum"},
    };
    for (auto [edit, named] : edits) {
        const std::string copy = (dir_ / "edited.db").string();
        Status resumed = testing::resume_edited(file, copy, edit);
        ASSERT_FALSE(resumed.ok()) << edit;
        EXPECT_NE(resumed.message().find("edited.db"), std::string::npos) << resumed.message();
        EXPECT_NE(resumed.message().find(named), std::string::npos) << edit << ": " << resumed.message();
        EXPECT_EQ(resumed.message().find('\n'), resumed.message().size() - 1) << "one line: " << resumed.message();
    }
}

// The job table's R (state/job_r.h) is what `allocated JOBID` prints with
// -F rv1_nosched (found there by find's walk of the whole graph, here by the tag
// walk), and each live job's window is its span's.
TEST_F(QueueRowsFile, JobRowsHoldWhatAllocatedPrints) {
    const std::string file = (dir_ / "saved.db").string();
    Options o = options();
    o.match_format = "rv1_nosched";
    Session s;
    ASSERT_TRUE(init_session(s, o, machine_).ok());
    attach_journal(s, machine_);
    for (int i = 0; i < 12; ++i) run(s, "match allocate_orelse_reserve " + spec(i % 6).string());
    run(s, "cancel 3");
    run(s, "request allocate_orelse_reserve cpus=3");
    ASSERT_TRUE(save(s, file, false).ok());
    Database db;
    ASSERT_TRUE(db.open(file, false).ok());
    auto rows = db.prepare("SELECT id, state, scheduled_at, r, start, end FROM job ORDER BY id");
    Status status;
    int live = 0;
    while (rows->step(status)) {
        int64_t id = rows->integer(0);
        std::string printed = run(s, "allocated " + std::to_string(id));
        std::string r = printed.substr(0, printed.find("INFO: ="));
        if (rows->text(1) == "canceled") {
            EXPECT_EQ("", rows->text(3)) << id;
            EXPECT_EQ(-1, rows->integer(4)) << id;
            continue;
        }
        ++live;
        EXPECT_EQ(r, rows->text(3)) << "job " << id;
        EXPECT_NE(std::string::npos, rows->text(3).find("R_lite")) << id;
        EXPECT_EQ(rows->integer(2), rows->integer(4)) << "job " << id << " starts when it was scheduled";
        EXPECT_GT(rows->integer(5), rows->integer(4)) << id;
    }
    EXPECT_GE(live, 10);
}

}  // namespace
}  // namespace rq::state
