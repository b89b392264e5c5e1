// The simulated queue of a session (session/queue.h): how it is made and
// how a job gets its shape (docs/queue.md).
#include "session/queue.h"

#include <gtest/gtest.h>

#include "session/session_test_util.h"

namespace rq {
namespace {

struct TinyQueue : ::testing::Test {
    Session s;
    void SetUp() override { testing::load_tiny_session(s); }
};

TEST_F(TinyQueue, TheQueueIsMadeOnceFromTheOptions) {
    s.options.queue_policy = "easy";
    auto q = session_queue(s);
    ASSERT_TRUE(q.ok()) << q.message();
    EXPECT_EQ((*q)->policy().name, "easy");
    EXPECT_EQ(*session_queue(s), *q);
}

TEST_F(TinyQueue, ABadPolicyNamesTheOptionAndMakesNoQueue) {
    s.options.queue_policy = "fastest";
    auto q = session_queue(s);
    ASSERT_FALSE(q.ok());
    EXPECT_EQ(q.message().rfind("--queue-policy: ", 0), 0u) << q.message();
    EXPECT_EQ(s.queue, nullptr);
}

TEST_F(TinyQueue, APoolJobTakesTheRequestAndAnHourByDefault) {
    queue::QueueJob job;
    ASSERT_TRUE(shape_pool_job(s, "cpus=1", -1, job).ok());
    EXPECT_EQ(*job.source, "request cpus=1");
    EXPECT_EQ(job.estimate, 3600);
    ASSERT_NE(job.pool, nullptr);
    queue::QueueJob never;
    Status refused = shape_pool_job(s, "cpus=100000", 60, never);
    EXPECT_EQ(refused.code(), Errc::kUnsatisfiable);
    EXPECT_EQ(refused.message().rfind("request cpus=100000: ", 0), 0u) << refused.message();
}

TEST_F(TinyQueue, AJobspecJobTakesItsDuration) {
    queue::QueueJob job;
    Status shaped = shape_jobspec_job(s, std::string(RQ_SOURCE_DIR) + "/t/data/jobspecs/node-socket-core.yaml", job);
    ASSERT_TRUE(shaped.ok()) << shaped.message();
    EXPECT_EQ(job.estimate, 3600);
    ASSERT_NE(job.jobspec, nullptr);
    queue::QueueJob missing;
    EXPECT_EQ(shape_jobspec_job(s, "cpus=4", missing).message(),
              "cannot read cpus=4 (a pool request is written: submit request cpus=4)");
}

}  // namespace
}  // namespace rq
