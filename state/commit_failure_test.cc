// A --state commit that fails (docs/state.md,
// Durability): the command prints no result, reports the file and the
// system's words, leaves the session as it was (schedule, job table,
// counter), and the next command, once writes succeed again, is saved.
// The failing write: the process's file-size limit lowered to the
// write-ahead log's size (t/cli/state_disk_full.sh fills a real disk).
#include "state/session_state.h"
#include "state/state_test_util.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include "traversers/dynamic_world.h"

namespace rq::state {
namespace {

namespace fs = std::filesystem;
using testing::run;

// Writes past the state file's write-ahead log as it stands fail (EFBIG)
// while this is alive: the file-size limit of the process, lowered.
class FailingWrites {
public:
    explicit FailingWrites(uintmax_t at) {
        getrlimit(RLIMIT_FSIZE, &saved_);
        previous_ = std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit lowered = saved_;
        lowered.rlim_cur = at;
        setrlimit(RLIMIT_FSIZE, &lowered);
    }
    ~FailingWrites() {
        setrlimit(RLIMIT_FSIZE, &saved_);
        std::signal(SIGXFSZ, previous_);
    }

private:
    struct rlimit saved_ {};
    void (*previous_)(int) = nullptr;
};

class CommitFailure : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("rq_commit_failure_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        machine_ = rq::testing::machine_jgf(0, 3);
        std::ofstream(dir_ / "machine.json") << machine_;
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }

    fs::path dir_;
    std::string machine_;
};

TEST_F(CommitFailure, UndoesTheCommandAndPrintsNoResult) {
    Options o = testing::jgf_machine_options(dir_, "high");
    o.state_file = path("live.db");
    Session live;
    ASSERT_TRUE(start_session(live, o, machine_, repl_front_end()).ok());
    const std::string match = "match allocate " + std::string(RQ_SOURCE_DIR) + "/t/data/jobspecs/core.yaml";
    ASSERT_NE(run(live, match).find("JOBID=1"), std::string::npos);
    const std::string schedule = live.store->describe();
    const std::string jobs = run(live, "list");

    std::string failed;
    {
        FailingWrites full(fs::file_size(path("live.db-wal")));
        failed = run(live, match);
    }
    EXPECT_EQ(failed.find("JOBID=2"), std::string::npos) << failed;
    EXPECT_NE(failed.find("ERROR: --state: " + path("live.db")), std::string::npos) << failed;
    EXPECT_NE(failed.find(": disk I/O error; the command is undone"), std::string::npos) << failed;
    EXPECT_EQ(failed.find('\n'), failed.size() - 1) << "one line: " << failed;
    EXPECT_EQ(unsaved_commands(live), 1);
    EXPECT_EQ(live.store->describe(), schedule);
    EXPECT_EQ(run(live, "list"), jobs);

    // Writes succeed again: the next command gets the undone one's id and is saved.
    EXPECT_NE(run(live, match).find("JOBID=2"), std::string::npos);
    Session resumed;
    ASSERT_TRUE(testing::resume_file(resumed, path("live.db")).ok());
    EXPECT_EQ(resumed.store->describe(), live.store->describe());
    EXPECT_EQ(run(resumed, "list"), run(live, "list"));
}

}  // namespace
}  // namespace rq::state
