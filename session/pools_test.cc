// The pool operations of a session (session/pools.h), as `request` runs
// them (docs/pools.md).
#include "session/pools.h"

#include <gtest/gtest.h>

#include "session/session_test_util.h"

namespace rq {
namespace {

struct TinyPools : ::testing::Test {
    Session s;
    void SetUp() override { testing::load_tiny_session(s); }
    RequestOutcome request(const Args& words) {
        auto command = parse_request_command(words);
        EXPECT_TRUE(command.ok()) << command.message();
        return command ? run_request(s, *command) : RequestOutcome{};
    }
};

TEST(RequestCommand, ParsesTheOptionsTheSubCommandAndTheItems) {
    auto c = parse_request_command({"request", "-F", "env", "--env", "A=%(cpu_ids)s", "--duration", "60",
                                    "allocate_orelse_reserve", "cpus=1", "gpus=2"});
    ASSERT_TRUE(c.ok()) << c.message();
    EXPECT_EQ(c->format, "env");
    ASSERT_EQ(c->templates.size(), 1u);
    EXPECT_EQ(c->templates[0].first, "A");
    EXPECT_EQ(c->duration, 60);
    EXPECT_EQ(c->op, pools::PoolOp::kAllocateOrElseReserve);
    EXPECT_EQ(c->text, "cpus=1 gpus=2");
}

TEST(RequestCommand, ErrorsSayWhatIsWrong) {
    EXPECT_EQ(parse_request_command({"request"}).message(), "missing sub-command");
    EXPECT_EQ(parse_request_command({"request", "grab", "cpus=1"}).message(), "unknown subcmd grab");
    EXPECT_EQ(parse_request_command({"request", "--duration", "0", "allocate"}).message(),
              "--duration needs a positive number of seconds, got 0");
    EXPECT_EQ(parse_request_command({"request", "-F"}).message(), "-F needs a value");
}

TEST_F(TinyPools, AnAllocationIsRecordedAndWritten) {
    RequestOutcome done = request({"request", "-F", "env", "allocate", "cpus=1"});
    ASSERT_TRUE(done.refused.ok() && done.found.ok()) << done.refused.message() << done.found.message();
    ASSERT_TRUE(done.written.ok());
    EXPECT_NE(done.R.find("HQ_RESOURCE_VALUES_cpus='core0'"), std::string::npos) << done.R;
    EXPECT_EQ(done.jobid, 1);
    EXPECT_EQ(done.at, 0);
    ASSERT_TRUE(s.is_live(1));
    EXPECT_EQ(s.jobs[1].state, JobState::kAllocated);
    EXPECT_EQ(*s.jobs[1].jobspec_path, "request cpus=1");
    EXPECT_EQ(s.next_jobid, 2);
}

TEST_F(TinyPools, WhatCanNeverFitChangesNothing) {
    RequestOutcome done = request({"request", "allocate", "cpus=100000"});
    EXPECT_TRUE(done.refused.ok());
    EXPECT_EQ(done.found.code(), Errc::kUnsatisfiable);
    EXPECT_EQ(done.jobid, 1);  // the id the reply names
    EXPECT_TRUE(s.jobs.empty());
    EXPECT_EQ(s.next_jobid, 1);
}

TEST_F(TinyPools, ARefusedRequestTouchesNoMatcher) {
    RequestOutcome done = request({"request", "-F", "nope", "allocate", "cpus=1"});
    EXPECT_EQ(done.refused.message(), "unknown format nope");
    EXPECT_EQ(s.pool_matcher, nullptr);
    done = request({"request", "allocate", "cpus=x"});
    EXPECT_FALSE(done.refused.ok());
    EXPECT_EQ(s.next_jobid, 1);
}

TEST(NamedWriter, TheMatchWritersAndThePoolsEnvWriters) {
    EXPECT_TRUE(make_named_writer("jgf").ok());
    EXPECT_TRUE(make_named_writer("env_export").ok());
    EXPECT_FALSE(make_named_writer("nope").ok());
}

}  // namespace
}  // namespace rq
