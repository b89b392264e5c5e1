// The session operations shared by resource-query and reapi_cli.
#include "session/operations.h"

#include <gtest/gtest.h>

#include "session/session_test_util.h"

namespace rq {
namespace {

using testing::source_text;

struct TinySession : ::testing::Test {
    Session s;
    void SetUp() override {
        Options options;
        options.match_format = "jgf";
        testing::load_tiny_session(s, options);
    }
    std::string core = source_text("t/data/jobspecs/node-socket-core.yaml");
};

TEST_F(TinySession, MatchRecordsTheJobAndReturnsTheWriterText) {
    MatchOutcome m = match_jobspec(s, MatchOp::kAllocate, core, 1, "core.yaml");
    ASSERT_EQ(m.code, Errc::kOk);
    EXPECT_TRUE(m.attempted);
    EXPECT_TRUE(m.consumes_id);
    EXPECT_EQ(m.R.rfind("{\"graph\"", 0), 0u);
    ASSERT_TRUE(s.is_live(1));
    EXPECT_EQ(*s.jobs[1].jobspec_path, "core.yaml");
    EXPECT_EQ(s.next_jobid, 1);  // the counter is the caller's
}

TEST_F(TinySession, JobspecErrorNamesTheIdAndChangesNothing) {
    MatchOutcome m = match_jobspec(s, MatchOp::kAllocate, "resources: [", 7, "x");
    EXPECT_TRUE(m.jobspec_error);
    EXPECT_FALSE(m.consumes_id);
    EXPECT_EQ(m.message.rfind("match_allocate: ERROR: Jobspec error for 7: ", 0), 0u) << m.message;
    EXPECT_TRUE(s.jobs.empty());
}

TEST_F(TinySession, SatisfiabilityAndWithoutAllocatingRecordNothing) {
    EXPECT_EQ(match_jobspec(s, MatchOp::kSatisfiability, core, 1, "").code, Errc::kOk);
    MatchOutcome w = match_jobspec(s, MatchOp::kWithoutAllocating, core, 1, "");
    EXPECT_EQ(w.code, Errc::kOk);
    EXPECT_FALSE(w.consumes_id);
    EXPECT_TRUE(s.jobs.empty());
}

TEST_F(TinySession, CancelReleasesAndRefusesUnknownJobs) {
    MatchOutcome first = match_jobspec(s, MatchOp::kAllocate, core, 1, "");
    ASSERT_EQ(first.code, Errc::kOk);
    Status gone = cancel_job(s, 1);
    EXPECT_TRUE(gone.ok());
    EXPECT_EQ(s.jobs[1].state, JobState::kCanceled);
    Status again = cancel_job(s, 1);
    EXPECT_EQ(again.code(), Errc::kNotFound);
    EXPECT_EQ(again.message(), "cancel: ERROR: nonexistent job 1");
    EXPECT_EQ(match_jobspec(s, MatchOp::kAllocate, core, 2, "").code, Errc::kOk);
}

TEST_F(TinySession, UpdateReplaysAnRAndRefusesALiveId) {
    MatchOutcome m = match_jobspec(s, MatchOp::kAllocate, core, 1, "");
    ASSERT_EQ(m.code, Errc::kOk);
    UpdateOutcome live = update_job(s, "jgf", m.R, 1, 0, 3600, "");
    EXPECT_EQ(live.code, Errc::kExists);
    EXPECT_FALSE(live.applied);
    ASSERT_TRUE(cancel_job(s, 1).ok());
    UpdateOutcome u = update_job(s, "jgf", m.R, 5, 0, 3600, "r.json");
    EXPECT_TRUE(u.ok) << (u.messages.empty() ? "" : u.messages.back());
    EXPECT_EQ(u.R, m.R);
    EXPECT_TRUE(s.is_live(5));
    EXPECT_EQ(s.next_jobid, 6);
    UpdateOutcome bad_time = update_job(s, "jgf", m.R, 9, -1, 3600, "");
    EXPECT_EQ(bad_time.code, Errc::kInvalid);
}

TEST_F(TinySession, PartialCancelRefusesAndExplainsThenReleasesTheWholeJob) {
    MatchOutcome m = match_jobspec(s, MatchOp::kAllocate, core, 1, "");
    MatchOutcome other = match_jobspec(s, MatchOp::kAllocate, core, 2, "");
    ASSERT_EQ(m.code, Errc::kOk);
    ASSERT_EQ(other.code, Errc::kOk);
    PartialCancelOutcome none = partial_cancel_job(s, 4, "jgf", m.R);
    EXPECT_FALSE(none.ran);
    EXPECT_EQ(none.status.code(), Errc::kNotFound);
    // Job 2's resources are not job 1's: the traverser refuses and says
    // why, and job 1 stays.
    PartialCancelOutcome wrong = partial_cancel_job(s, 1, "jgf", other.R);
    EXPECT_TRUE(wrong.ran);
    EXPECT_FALSE(wrong.status.ok());
    EXPECT_EQ(wrong.status.message(), "ERROR: error encountered while removing job 1");
    EXPECT_FALSE(wrong.stdout_text.empty());
    EXPECT_TRUE(s.is_live(1));
    // The R the match printed releases the whole job.
    PartialCancelOutcome all = partial_cancel_job(s, 1, "jgf", m.R);
    EXPECT_TRUE(all.status.ok()) << all.status.message() << all.stdout_text;
    EXPECT_TRUE(all.full_removal);
    EXPECT_FALSE(s.is_live(1));
    EXPECT_TRUE(s.is_live(2));
}

TEST_F(TinySession, FindAndStatus) {
    std::string R;
    Status written;
    ASSERT_TRUE(find_matching(s, "status=down", *s.writer, R, written).ok());
    EXPECT_TRUE(!written.ok() || R.empty()) << R;  // nothing to write
    EXPECT_FALSE(find_matching(s, "no-such-key=1", *s.writer, R, written).ok());
    EXPECT_EQ(set_path_status(s, "/nowhere", false).code(), Errc::kNotFound);
    ASSERT_TRUE(set_path_status(s, "/tiny0/rack0/node0", false).ok());
    ASSERT_TRUE(find_matching(s, "status=down", *s.writer, R, written).ok());
    ASSERT_TRUE(written.ok());
    EXPECT_NE(R.find("node0"), std::string::npos);
}

}  // namespace
}  // namespace rq
