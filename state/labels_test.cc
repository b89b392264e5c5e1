// Jobspec labels (JGF "ephemeral") across save and resume. A match stores
// its labels on the vertices its walk labels (chosen or not), and find,
// allocated and available clear the labels of every vertex they walk
// (output.md §1.3). A resumed session must hold the labels the saved one
// held, whichever way it was saved (whole, changes only, --state) and
// resumed (rows or journal replay), so that a later match prints the same
// JGF.
#include "state/session_state.h"
#include "state/state_test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "traversers/dynamic_world.h"

namespace rq::state {
namespace {

namespace fs = std::filesystem;
using testing::labels_of;
using testing::run;

// A node with one socket's worth of cores labelled, below a labelled node
// (the CLI test t/cli/state_labels.sh reads it too).
std::string labelled_jobspec() {
    std::ifstream in(std::string(RQ_SOURCE_DIR) + "/t/data/jobspecs/labelled.yaml");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The same shape without the node's and the cores' labels (the slot keeps
// its own, which tasks name): what it prints shows stale labels.
std::string plain_jobspec() {
    std::istringstream in(labelled_jobspec());
    std::string out, line;
    while (std::getline(in, line))
        if (line.find("label: big") == std::string::npos && line.find("label: pair") == std::string::npos)
            out += line + "\n";
    return out;
}

// The commands that clear labels, and what a later match then prints.
class StateLabels : public ::testing::TestWithParam<const char*> {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("rq_labels_test_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        machine_ = rq::testing::machine_jgf(0, 3);
        write("machine.json", machine_);
        write("labelled.yaml", labelled_jobspec());
        write("plain.yaml", plain_jobspec());
    }
    void TearDown() override { fs::remove_all(dir_); }

    void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }

    Options options() const {
        Options o = testing::jgf_machine_options(dir_, "high");
        o.match_format = "jgf";
        return o;
    }
    std::unique_ptr<Session> fresh(const Options& o) const { return testing::fresh_session(o, machine_); }
    std::unique_ptr<Session> resume(const std::string& file) const {
        auto s = std::make_unique<Session>();
        Status resumed = testing::resume_file(*s, file);
        EXPECT_TRUE(resumed.ok()) << resumed.message();
        return s;
    }

    // Labels set by a match, then cleared by GetParam(): true if they were.
    bool match_then_clear(Session& s) {
        run(s, "match allocate " + path("labelled.yaml"));
        if (labels_of(s).empty()) return false;
        run(s, GetParam());
        return labels_of(s).empty();
    }

    // The resumed session holds the live one's labels and prints what it
    // prints for the same later commands.
    void expect_same(Session& live, Session& resumed) {
        EXPECT_EQ(labels_of(live), labels_of(resumed));
        for (const char* later : {"match allocate plain.yaml", "match allocate labelled.yaml", "find status=up"}) {
            std::string line = later;
            if (line.rfind("match", 0) == 0) line = line.substr(0, 15) + path(line.substr(15));
            EXPECT_EQ(run(live, line), run(resumed, line)) << line;
        }
        EXPECT_EQ(live.store->describe(), resumed.store->describe());
    }

    fs::path dir_;
    std::string machine_;
};

TEST_P(StateLabels, ChangesSaveKeepsClearedLabels) {
    auto live = fresh(options());
    run(*live, "match allocate " + path("plain.yaml"));
    ASSERT_TRUE(save(*live, path("saved.db"), false).ok());
    ASSERT_TRUE(match_then_clear(*live));
    ASSERT_TRUE(save(*live, path("saved.db"), true).ok());
    auto resumed = resume(path("saved.db"));
    ASSERT_TRUE(resumed_from_rows(*resumed));
    expect_same(*live, *resumed);
}

TEST_P(StateLabels, ChangesSaveAfterClearingLabelsOfAWholeSave) {
    auto live = fresh(options());
    run(*live, "match allocate " + path("labelled.yaml"));
    ASSERT_FALSE(labels_of(*live).empty());
    ASSERT_TRUE(save(*live, path("saved.db"), false).ok());
    run(*live, GetParam());
    ASSERT_TRUE(labels_of(*live).empty());
    ASSERT_TRUE(save(*live, path("saved.db"), true).ok());
    auto resumed = resume(path("saved.db"));
    expect_same(*live, *resumed);
}

TEST_P(StateLabels, StateFileKeepsClearedLabels) {
    Options o = options();
    o.state_file = path("live.db");
    auto live = std::make_unique<Session>();
    ASSERT_TRUE(start_session(*live, o, machine_, repl_front_end()).ok());
    ASSERT_TRUE(match_then_clear(*live));
    auto resumed = resume(path("live.db"));
    ASSERT_TRUE(resumed_from_rows(*resumed));
    expect_same(*live, *resumed);
}

// A JQM queue keeps its state in the journal only: the resume replays it.
TEST_P(StateLabels, JournalReplayClearsLabelsToo) {
    Options o = options();
    o.queue_policy = "jqm";
    auto live = fresh(o);
    run(*live, "time");
    ASSERT_TRUE(match_then_clear(*live));
    ASSERT_TRUE(save(*live, path("saved.db"), false).ok());
    auto resumed = resume(path("saved.db"));
    ASSERT_FALSE(resumed_from_rows(*resumed));
    expect_same(*live, *resumed);
}

// A match labels every candidate its walk accepts, not only those it
// picks: those are rows to rewrite too; and so are they once cleared.
TEST_P(StateLabels, ChangesSaveKeepsLabelsOfCandidatesNotPicked) {
    auto live = fresh(options());
    ASSERT_TRUE(save(*live, path("saved.db"), false).ok());
    run(*live, "match allocate " + path("labelled.yaml"));
    run(*live, "cancel 1");
    ASSERT_FALSE(labels_of(*live).empty());
    ASSERT_TRUE(save(*live, path("saved.db"), true).ok());
    auto resumed = resume(path("saved.db"));
    ASSERT_TRUE(resumed_from_rows(*resumed));
    expect_same(*live, *resumed);
    run(*live, GetParam());
    ASSERT_TRUE(labels_of(*live).empty());
    ASSERT_TRUE(save(*live, path("saved.db"), true).ok());
    resumed = resume(path("saved.db"));
    expect_same(*live, *resumed);
}

INSTANTIATE_TEST_SUITE_P(Clearing, StateLabels, ::testing::Values("find status=up", "allocated", "available"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                             std::string name = info.param;
                             return name.substr(0, name.find(' '));
                         });

}  // namespace
}  // namespace rq::state
